import { performance } from 'node:perf_hooks';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { Chat } from '@pi/chat';
import { burstProvider, words } from './burst-provider';
import { fillTranscript, startTuiFixture } from './tui-fixture';

/** Deltas in the streamed answer. */
export const STREAM_DELTAS = 1000;

export interface StreamRound {
  /** The provider yielding its last delta → the frame showing it written to the terminal. */
  readonly lastDeltaToScreenMs: number;
  /** First delta yielded → last delta yielded: how long the burst took in the session. */
  readonly burstMs: number;
  /** Frames painted and bytes written from the first delta to the frame showing the last. */
  readonly frames: number;
  readonly bytes: number;
}

/**
 * One prompt to a real session whose provider streams `STREAM_DELTAS` words as fast as the event loop turns; the
 * chat TUI (over a WebSocket, as pi-tui attaches) draws them under `entries` blocks already in its transcript.
 * Nothing else is painting meanwhile.
 */
export async function measureStream(entries: number): Promise<StreamRound> {
  const deltas = words(STREAM_DELTAS);
  const provider = burstProvider(deltas);
  const fixture = await startTuiFixture({ provider });
  try {
    fillTranscript(fixture, entries);
    const chat = await fixture.client.use(Chat);
    const last = deltas.at(-1)?.trim() ?? '';
    // The streamed answer wraps; its tail, the last word, is at the bottom of the transcript.
    const lastShown = () => fixture.host.screen.text().some((row) => row.includes(last));
    const painted = fixture.timed.whenPainted(lastShown, 60_000);
    // Awaited below; handled here too so that a refused prompt is what fails the round, not this timer later.
    painted.catch(() => undefined);
    // Frames and bytes are counted from the first delta: the prompt's own frames (the user entry) come before it.
    let framesBefore = Number.NaN;
    let bytesBefore = Number.NaN;
    const startedStreaming = chat.events.subscribe((event) => {
      if (event.type !== 'delta' || !Number.isNaN(framesBefore)) return;
      framesBefore = fixture.host.frames;
      bytesBefore = fixture.timed.bytes;
    });
    const response = await chat.prompt({ text: 'stream please' }, BACKGROUND_CONTEXT);
    if (!response.accepted) throw new Error(`The prompt was refused: ${response.error?.message ?? ''}`);
    const shownAt = await painted.catch((error: Error) => {
      // A lost paint is a bug to find: say what the screen and the session showed instead.
      const running = chat.transcript.value.running === null ? 'settled' : 'still running';
      const rows = fixture.host.screen.text().map((row) => row.trimEnd());
      throw new Error(
        `${error.message}: the last delta (${last}) was sent ${(performance.now() - provider.lastDeltaAt).toFixed(0)} ms ago, the run is ${running}, the connection ${fixture.client.connection.value.status}; the screen:\n${rows.join('\n')}`,
      );
    });
    startedStreaming();
    const round = {
      lastDeltaToScreenMs: shownAt - provider.lastDeltaAt,
      burstMs: provider.lastDeltaAt - provider.firstDeltaAt,
      frames: fixture.host.frames - framesBefore,
      bytes: fixture.timed.bytes - bytesBefore,
    };
    await waitUntil(() => !fixture.screen().includes('esc to interrupt'));
    return round;
  } finally {
    await fixture.close();
  }
}

async function waitUntil(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error('The run did not settle');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
