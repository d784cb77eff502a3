import { spawn } from 'node:child_process';
import { readStats, sampleMarked, sumStats, type GroupSample } from './process-stats';
import { stopProcesses } from './stop-processes';

const MIB = 1024 * 1024;
/** A move of the summed RSS that counts: a reducer's gives back 3–40 MiB; a young-generation page comes and goes by 1. */
const MOVE_BYTES = 2 * MIB;

/** RSS moves with each process's garbage collections: the middle of five samples 200 ms apart. */
export async function memorySample(sample: () => Promise<GroupSample>): Promise<GroupSample> {
  const samples: GroupSample[] = [];
  for (let index = 0; index < 5; index++) {
    if (index > 0) await new Promise((resolve) => setTimeout(resolve, 200));
    samples.push(await sample());
  }
  return samples.sort((a, b) => a.rssBytes - b.rssBytes)[2] as GroupSample;
}

/** The processes' memory when they have been left alone for a while, and when it last moved meanwhile. */
export interface MemoryAtRest {
  readonly sample: GroupSample;
  /** Into the rest, when the summed RSS last moved by 2 MiB or more from one second to the next (0: never). */
  readonly settledMs: number;
}

/**
 * The memory of a group of processes after `restMs` of nothing to do, sampled every second meanwhile to see when it
 * last moved. Node gives memory back on its own when idle: V8's memory reducer, armed by a full collection, runs up
 * to three collections that shrink the heap at the first of its 8 s ticks where the allocation rate looks low, or at
 * the latest 100 s after the last full collection. When that happens depends on what the process did before:
 * upstream's 152 MiB fell to 112 MiB 38 s after its last answer in one run, and to 120 MiB 60 s after it in another
 * (the 100 s since its last full collection). A sample taken a moment after the answer reads each agent at some
 * point of that, so both are read at the same moment, after every process's reducer has had its turn.
 */
export async function memoryAtRest(
  sample: () => Promise<GroupSample>,
  restMs: number,
  stepMs = 1000,
): Promise<MemoryAtRest> {
  const start = performance.now();
  let previous = (await sample()).rssBytes;
  let settledMs = 0;
  while (performance.now() - start + stepMs < restMs) {
    await new Promise((resolve) => setTimeout(resolve, stepMs));
    const { rssBytes } = await sample();
    if (Math.abs(rssBytes - previous) >= MOVE_BYTES) settledMs = performance.now() - start;
    previous = rssBytes;
  }
  const left = restMs - (performance.now() - start);
  if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
  return { sample: await memorySample(sample), settledMs };
}

export const markedSample = (marker: string) => () => sampleMarked(marker);

/**
 * The floor under a summed RSS: `count` node processes that do nothing (`node -e` with a timer), started at once,
 * read as the agents are (the middle of five samples, here after `restMs`), then stopped.
 */
export async function emptyNodesBytes(count: number, restMs = 2000): Promise<number> {
  const children = Array.from({ length: count }, () =>
    spawn(process.execPath, ['-e', 'setInterval(() => {}, 2 ** 30)'], { stdio: 'ignore' }),
  );
  const pids = children.flatMap((child) => (child.pid === undefined ? [] : [child.pid]));
  try {
    await new Promise((resolve) => setTimeout(resolve, restMs));
    const sampled = await memorySample(async () => sumStats(await readStats(pids)));
    if (sampled.processes.length !== count)
      throw new Error(`Only ${sampled.processes.length} of ${count} empty nodes ran`);
    return sampled.rssBytes;
  } finally {
    await stopProcesses(pids);
  }
}
