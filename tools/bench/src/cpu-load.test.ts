import { describe, expect, it } from 'vitest';
import { startCpuLoad } from './cpu-load';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('startCpuLoad', () => {
  it('starts the busy loops it is asked for and stops every one of them', async () => {
    const load = await startCpuLoad(2);
    expect(load.pids).toHaveLength(2);
    expect(load.pids.every(alive)).toBe(true);
    await load.stop();
    expect(load.pids.some(alive)).toBe(false);
  });

  it('can be stopped twice', async () => {
    const load = await startCpuLoad(1);
    await load.stop();
    await load.stop();
    expect(load.pids.some(alive)).toBe(false);
  });
});
