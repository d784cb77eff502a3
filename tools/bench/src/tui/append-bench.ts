import { performance } from 'node:perf_hooks';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { Chat } from '@pi/chat';
import { median } from '../stats';
import { burstProvider } from './burst-provider';
import { fillTranscript, fillerBlock, startTuiFixture } from './tui-fixture';

/** Appends timed per round and transcript size. */
export const APPENDS_PER_ROUND = 20;
/** Prompts per round when the entries come through a real session (each run appends four entries). */
export const PROMPTS_PER_ROUND = 5;

export interface AppendRound {
  /** Median time of one append's frame (see each measurement). */
  readonly ms: number;
  /** Median bytes written for it. */
  readonly bytes: number;
  /** Median frames painted for it. */
  readonly frames: number;
}

/**
 * Straight into the TUI host: with `entries` blocks in its transcript, one more block is upserted and the frame
 * painted at once (`host.flush()`); timed is that synchronous upsert + compose + diff + write.
 */
export async function measureHostAppend(entries: number): Promise<AppendRound> {
  const fixture = await startTuiFixture({ provider: burstProvider(['ok']) });
  try {
    fillTranscript(fixture, entries);
    const times: number[] = [];
    const bytes: number[] = [];
    for (let index = 0; index < APPENDS_PER_ROUND; index += 1) {
      const before = fixture.timed.bytes;
      const start = performance.now();
      fixture.transcript.upsert(`bench:${entries + index}`, fillerBlock(entries + index));
      fixture.host.flush();
      times.push(performance.now() - start);
      bytes.push(fixture.timed.bytes - before);
    }
    return { ms: median(times), bytes: median(bytes), frames: 1 };
  } finally {
    await fixture.close();
  }
}

/**
 * Through a real session whose file already holds `entries` entries: `chat.prompt` → the frame showing the user's
 * message (one appended entry) written to the terminal, with the frames and bytes painted on the way. The run is
 * let settle before the next prompt.
 */
export async function measureSessionAppend(entries: number): Promise<AppendRound> {
  const fixture = await startTuiFixture({ provider: burstProvider(['ok']), seeded: entries });
  try {
    const chat = await fixture.client.use(Chat);
    await waitUntil(() => fixture.screen().includes(`seeded message ${entries - 1}`));
    const times: number[] = [];
    const bytes: number[] = [];
    const frames: number[] = [];
    for (let index = 0; index < PROMPTS_PER_ROUND; index += 1) {
      const marker = `marker ${index} of ${entries}`;
      const painted = fixture.timed.whenPainted(() => fixture.screen().includes(`› ${marker}`));
      const before = { bytes: fixture.timed.bytes, frames: fixture.host.frames };
      const start = performance.now();
      const response = await chat.prompt({ text: marker }, BACKGROUND_CONTEXT);
      if (!response.accepted) throw new Error(`The prompt was refused: ${response.error?.message ?? ''}`);
      times.push((await painted) - start);
      bytes.push(fixture.timed.bytes - before.bytes);
      frames.push(fixture.host.frames - before.frames);
      await waitUntil(() => !fixture.screen().includes('esc to interrupt') && chat.transcript.value.running === null);
    }
    return { ms: median(times), bytes: median(bytes), frames: median(frames) };
  } finally {
    await fixture.close();
  }
}

async function waitUntil(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error('The screen did not settle');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
