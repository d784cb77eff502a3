import { performance } from 'node:perf_hooks';
import { Chat } from '@pi/chat';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { FRAME_MS } from '@pi/host-tui';
import { median } from '../stats';
import { burstProvider, pacedProvider } from './burst-provider';
import { fillTranscript, startTuiFixture, type TuiFixture } from './tui-fixture';

/** Keys typed per round and transcript size. */
export const KEYS_PER_ROUND = 40;

export interface KeypressRound {
  /** Median over the round's keys: key written to the terminal's input → the frame showing it written out. */
  readonly latencyMs: number;
  /** The slowest key of the round. */
  readonly worstMs: number;
  /** Median bytes written for one key's frame. */
  readonly bytesPerKey: number;
}

/**
 * Types `KEYS_PER_ROUND` letters into the editor of a TUI whose transcript holds `entries` blocks, one at a time
 * and each after the screen went idle (as a person types: the frame is not held back by the one before).
 */
export async function measureKeypresses(entries: number): Promise<KeypressRound> {
  const fixture = await startTuiFixture({ provider: burstProvider(['ok']) });
  try {
    fillTranscript(fixture, entries);
    return await typeKeys(fixture, () => idle(FRAME_MS + 4));
  } finally {
    await fixture.close();
  }
}

/** Interval between the words of the answer streaming while keys are typed (~100 words a second). */
export const STREAM_PIECE_MS = 10;

/**
 * Types `KEYS_PER_ROUND` letters while an answer streams a word every `STREAM_PIECE_MS` under `entries` blocks:
 * the screen paints a frame per frame interval for the answer, and each key lands somewhere in that interval (the
 * pauses between keys differ, so the keys fall at every point of it).
 */
export async function measureKeypressesWhileStreaming(entries: number): Promise<KeypressRound> {
  const provider = pacedProvider(STREAM_PIECE_MS);
  const fixture = await startTuiFixture({ provider });
  try {
    fillTranscript(fixture, entries);
    const chat = await fixture.client.use(Chat);
    const streaming = fixture.timed.whenPainted(() => /\bw2\b/.test(fixture.screen()));
    const response = await chat.prompt({ text: 'stream while I type' }, BACKGROUND_CONTEXT);
    if (!response.accepted) throw new Error(`The prompt was refused: ${response.error?.message ?? ''}`);
    await streaming;
    const round = await typeKeys(fixture, (index) => idle(3 + ((index * 7) % 17)));
    if (chat.transcript.value.running === null) throw new Error('The answer ended before the last key was typed');
    const settled = fixture.timed.whenPainted(() => !fixture.screen().includes('esc to interrupt'));
    provider.stop();
    await settled;
    return round;
  } finally {
    provider.stop();
    await fixture.close();
  }
}

/** Types the keys one at a time, each after `pause(index)`, and times each from its write to its frame. */
async function typeKeys(fixture: TuiFixture, pause: (index: number) => Promise<void>): Promise<KeypressRound> {
  const latencies: number[] = [];
  const bytes: number[] = [];
  let typed = '';
  for (let index = 0; index < KEYS_PER_ROUND; index += 1) {
    await pause(index);
    const key = String.fromCharCode(97 + (index % 26));
    typed += key;
    const expected = typed;
    const editorShows = () => fixture.host.screen.text().some((row) => row.trimEnd() === expected);
    const painted = fixture.timed.whenPainted(editorShows);
    const before = fixture.timed.bytes;
    const start = performance.now();
    fixture.timed.terminal.input.write(key);
    latencies.push((await painted) - start);
    bytes.push(fixture.timed.bytes - before);
  }
  return { latencyMs: median(latencies), worstMs: Math.max(...latencies), bytesPerKey: median(bytes) };
}

function idle(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
