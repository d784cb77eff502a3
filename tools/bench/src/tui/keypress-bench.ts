import { performance } from 'node:perf_hooks';
import { FRAME_MS } from '@pi/host-tui';
import { median } from '../stats';
import { burstProvider } from './burst-provider';
import { fillTranscript, startTuiFixture } from './tui-fixture';

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
    const latencies: number[] = [];
    const bytes: number[] = [];
    let typed = '';
    for (let index = 0; index < KEYS_PER_ROUND; index += 1) {
      await idle(FRAME_MS + 4);
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
  } finally {
    await fixture.close();
  }
}

function idle(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
