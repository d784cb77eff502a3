import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  commandName,
  cpuPercent,
  cpuPercentByProcess,
  cpuUsedMs,
  processTree,
  parseSmapsRollup,
  sharedOnceBytes,
  sumStats,
  type ProcessStat,
} from './process-stats';

describe('commandName', () => {
  it('names a node process after its script', () => {
    expect(commandName('/usr/bin/node\0/w/dist/apps/tui/pi-tui.mjs\0--start\0', 'node')).toBe('pi-tui.mjs');
  });

  it('keeps the executable name when no argument is a script', () => {
    expect(commandName('pi\0', 'pi')).toBe('pi');
    expect(commandName('', 'node')).toBe('node');
  });
});

const stat = (pid: number, cpuTicks: number, rssBytes = 0): ProcessStat => ({
  pid,
  name: 'node',
  parentPid: 1,
  cpuTicks,
  reapedCpuTicks: 0,
  rssBytes,
});

describe('sumStats and cpuPercent', () => {
  it('sums the RSS and ticks of a group', () => {
    expect(sumStats([stat(1, 5, 100), stat(2, 7, 50)])).toMatchObject({ rssBytes: 150, cpuTicks: 12 });
  });

  it('is the ticks used between two samples over the time between them, as % of one core', () => {
    // 50 ticks (0.5 s of CPU at 100 ticks a second) over 2 s: 25 %.
    const before = sumStats([stat(1, 100), stat(2, 10)]);
    const after = sumStats([stat(1, 130), stat(2, 30)]);
    expect(cpuPercent(before, after, 2000)).toBeCloseTo(25);
  });

  it('counts all of a process that started between the samples, nothing of one that ended', () => {
    const before = sumStats([stat(1, 100), stat(2, 500)]);
    const after = sumStats([stat(1, 110), stat(3, 40)]);
    expect(cpuPercent(before, after, 1000)).toBeCloseTo(50);
  });

  it('is 0 over no time rather than infinite', () => {
    expect(cpuPercent(sumStats([]), sumStats([stat(1, 10)]), 0)).toBe(0);
  });

  it('by process: each process of the later sample with its own share, adding up to the group’s', () => {
    const before = sumStats([stat(1, 100), stat(2, 500)]);
    const after = sumStats([stat(1, 110), stat(3, 40)]);
    const byProcess = cpuPercentByProcess(before, after, 1000);
    expect(byProcess.map(({ name }) => name)).toEqual(['node', 'node']);
    expect(byProcess[0]?.percent).toBeCloseTo(10);
    expect(byProcess[1]?.percent).toBeCloseTo(40);
    expect(byProcess.reduce((sum, { percent }) => sum + percent, 0)).toBeCloseTo(cpuPercent(before, after, 1000));
  });
});

describe('parseSmapsRollup and sharedOnceBytes', () => {
  // The lines of a real /proc/<pid>/smaps_rollup of a node process, in the kernel's order.
  const ROLLUP = [
    '55d1c6a00000-7ffd3a5f1000 ---p 00000000 00:00 0                          [rollup]',
    'Rss:               63984 kB',
    'Pss:               38220 kB',
    'Shared_Clean:      39012 kB',
    'Shared_Dirty:          0 kB',
    'Private_Clean:       812 kB',
    'Private_Dirty:     24160 kB',
    'Anonymous:         24132 kB',
  ].join('\n');

  it('reads RSS and the private memory (Private_Clean + Private_Dirty), in bytes', () => {
    expect(parseSmapsRollup(ROLLUP)).toEqual({ rssBytes: 63984 * 1024, privateBytes: (812 + 24160) * 1024 });
  });

  it('is undefined for text that is not a rollup', () => {
    expect(parseSmapsRollup('')).toBeUndefined();
    expect(parseSmapsRollup('Private_Dirty: 12 kB')).toBeUndefined();
  });

  it('counts each private part and the largest shared part once, where summed RSS counts every shared part', () => {
    const tui = { rssBytes: 100, privateBytes: 60 };
    const session = { rssBytes: 90, privateBytes: 45 };
    expect(sharedOnceBytes([tui, session, undefined])).toBe(60 + 45 + 45);
    expect(sharedOnceBytes([tui])).toBe(100);
    expect(sharedOnceBytes([])).toBe(0);
  });
});

describe('cpuUsedMs', () => {
  const reaping = (pid: number, cpuTicks: number, reapedCpuTicks: number): ProcessStat => ({
    ...stat(pid, cpuTicks),
    reapedCpuTicks,
  });

  it("counts each process's ticks and its reaped children's since the first sample, all of a new one's", () => {
    const before = sumStats([reaping(1, 100, 10), stat(2, 50)]);
    // pid 1 used 5 ticks and reaped a child that used 7; pid 2 ended; pid 3 started and used 4.
    const after = sumStats([reaping(1, 105, 17), stat(3, 4)]);
    expect(cpuUsedMs(before, after)).toBe((5 + 7 + 4) * 10);
  });

  it('is 0 between two samples of idle processes', () => {
    const idle = sumStats([reaping(1, 100, 10), stat(2, 50)]);
    expect(cpuUsedMs(idle, idle)).toBe(0);
  });
});

describe('processTree', () => {
  it('finds this process and a child it started', async () => {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 10000)']);
    try {
      await new Promise((resolve) => child.once('spawn', resolve));
      const tree = await processTree(process.pid);
      expect(tree[0]).toBe(process.pid);
      expect(tree).toContain(child.pid);
    } finally {
      child.kill();
    }
  });
});
