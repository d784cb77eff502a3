import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { hasEnded, parseProcessStat, readProcessStat, readProcessStatSync, type ProcessStat } from './process-stat';

// A real /proc/<pid>/stat line (of `cat`).
const CAT =
  '19990 (cat) R 19988 19988 10245 0 -1 4194304 97 0 0 0 7 3 0 0 20 0 1 0 340881 3133440 355 18446744073709551615 ' +
  '93965980647424 93965980667305 140724763119936 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0';

const CAT_STAT: ProcessStat = {
  pid: 19990,
  name: 'cat',
  state: 'R',
  parentPid: 19988,
  processGroup: 19988,
  cpuTicks: 10,
  reapedCpuTicks: 0,
  startTicks: 340881,
  residentPages: 355,
};

describe('parseProcessStat', () => {
  it('reads the pid, name, state, parent, group, CPU ticks (user + system), start time and resident pages', () => {
    expect(parseProcessStat(CAT)).toEqual(CAT_STAT);
  });

  it('counts the fields from the last parenthesis, whatever the name holds', () => {
    const line = CAT.replace('(cat)', '(a) (b c)');
    expect(parseProcessStat(line)).toMatchObject({ pid: 19990, name: 'a) (b c', state: 'R', startTicks: 340881 });
  });

  it('rejects a line that is not a stat line', () => {
    expect(parseProcessStat('')).toBeUndefined();
    expect(parseProcessStat('19990 (cat) R 19988')).toBeUndefined();
    expect(parseProcessStat('x (cat) R 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23')).toBeUndefined();
  });
});

describe('hasEnded', () => {
  it('holds for a zombie and a dead process only', () => {
    const of = (state: string) => hasEnded({ ...CAT_STAT, state });
    expect([of('Z'), of('X'), of('R'), of('S')]).toEqual([true, true, false, false]);
  });
});

describe.runIf(process.platform === 'linux')('reading /proc', () => {
  it('reads this process, the same both ways', async () => {
    const sync = readProcessStatSync(process.pid);
    expect(sync).toMatchObject({ pid: process.pid, parentPid: process.ppid });
    expect((await readProcessStat(process.pid))?.startTicks).toBe(sync?.startTicks);
  });

  it('finds nothing of a process that is gone', async () => {
    const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    const pid = child.pid ?? -1;
    await new Promise((resolve) => child.once('close', resolve));
    expect(readProcessStatSync(pid)).toBeUndefined();
    expect(await readProcessStat(pid)).toBeUndefined();
  });
});
