import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { emptyNodesBytes, memoryAtRest, memorySample } from './memory-at-rest';
import { processTree, type GroupSample } from './process-stats';

const MIB = 1024 * 1024;

/** A group whose summed RSS is the next of `mib` on each sample (the last one repeated). */
function scripted(mib: readonly number[]): { sample: () => Promise<GroupSample>; calls: () => number } {
  let calls = 0;
  const sample = () => {
    const rssBytes = (mib[Math.min(calls, mib.length - 1)] ?? 0) * MIB;
    calls += 1;
    return Promise.resolve({ rssBytes, cpuTicks: 0, processes: [] });
  };
  return { sample, calls: () => calls };
}

describe('memorySample', () => {
  it('gives the middle of five samples', async () => {
    const { sample, calls } = scripted([90, 10, 50, 30, 70]);
    expect((await memorySample(sample)).rssBytes).toBe(50 * MIB);
    expect(calls()).toBe(5);
  });
});

describe('memoryAtRest', () => {
  it('reads the memory at the end of the rest, after it fell', async () => {
    // Samples every 10 ms over 100 ms: the fall from 150 to 110 MiB at the fourth, then nothing moves.
    const { sample } = scripted([150, 150, 150, 110, 110.5, 110]);
    const rest = await memoryAtRest(sample, 100, 10);
    expect(rest.sample.rssBytes).toBe(110 * MIB);
    expect(rest.settledMs).toBeGreaterThan(0);
    expect(rest.settledMs).toBeLessThan(100);
  });

  it('says a group that never moved by 2 MiB settled at once', async () => {
    const { sample } = scripted([100, 101.9, 100.2, 101.5]);
    expect((await memoryAtRest(sample, 50, 10)).settledMs).toBe(0);
  });
});

describe('emptyNodesBytes', () => {
  it('sums the RSS of that many idle node processes and stops them', async () => {
    const bytes = await emptyNodesBytes(2, 500);
    // An empty node holds some tens of MiB (most of it the binary's pages): two of them more than one could.
    expect(bytes).toBeGreaterThan(2 * 10 * MIB);
    expect(bytes).toBeLessThan(2 * 200 * MIB);
    const [, ...children] = await processTree(process.pid);
    const commands = await Promise.all(children.map((pid) => readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')));
    expect(commands.filter((command) => command.includes('setInterval'))).toEqual([]);
  });
});
