import { eventually } from '@pi/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { alive, cleanUpHarnesses, createHarness, spawnStray } from './fixture';

afterEach(cleanUpHarnesses);

describe('adopting a session process that outlived a coordinator', { timeout: 60_000 }, () => {
  it('tracks it as idle and stops it', async () => {
    const { processes, launch, changes } = await createHarness({ adoptedPollMs: 50 });
    const pid = spawnStray();
    processes.adopt(launch('s-1'), pid);
    expect(processes.status('s-1')).toBe('idle');
    expect(processes.pid('s-1')).toBe(pid);
    expect((await processes.start(launch('s-1'))).isOk()).toBe(true); // already running: nothing spawned
    processes.presentations('s-1', 1);
    await processes.stop('s-1');
    expect(alive(pid)).toBe(false);
    expect(changes.map(({ previous, status }) => `${previous}→${status}`)).toEqual([
      'closed→idle',
      'idle→active',
      'active→closed',
    ]);
    expect(changes.at(-1)?.exit).toEqual({ code: null, signal: null, crashed: false });
  });

  it('notices its death from outside as a crash', async () => {
    const { processes, launch, changes } = await createHarness({ adoptedPollMs: 50 });
    const pid = spawnStray();
    processes.adopt(launch('s-1'), pid);
    process.kill(pid, 'SIGKILL');
    await eventually(() => processes.status('s-1') === 'closed');
    expect(changes.at(-1)).toEqual({
      sessionId: 's-1',
      status: 'closed',
      previous: 'idle',
      exit: { code: null, signal: null, crashed: true },
    });
    expect(processes.running()).toEqual([]);
  });

  it('starts a session anew whose adopted process is gone before the next poll', async () => {
    const { processes, launch, markers } = await createHarness({ adoptedPollMs: 60_000 });
    const pid = spawnStray();
    processes.adopt(launch('s-1'), pid);
    process.kill(pid, 'SIGKILL');
    await eventually(() => !alive(pid));
    const restarted = processes.start(launch('s-1'));
    await eventually(() => markers('s-1').length === 1);
    processes.connected('s-1');
    expect((await restarted).isOk()).toBe(true);
    expect(processes.pid('s-1')).not.toBe(pid);
  });

  it('does not adopt a process that is gone, nor a session already tracked', async () => {
    const { processes, launch, changes } = await createHarness({ adoptedPollMs: 50 });
    const pid = spawnStray();
    process.kill(pid, 'SIGKILL');
    await eventually(() => !alive(pid));
    processes.adopt(launch('s-1'), pid);
    expect(processes.status('s-1')).toBe('closed');
    const other = spawnStray();
    processes.adopt(launch('s-2'), other);
    processes.adopt(launch('s-2'), spawnStray());
    expect(processes.pid('s-2')).toBe(other);
    expect(changes).toHaveLength(1);
    expect(() => processes.adopt(launch('s-3'), 0)).toThrow(RangeError);
  });

  it('stopAll stops adopted and started sessions alike', async () => {
    const harness = await createHarness({ adoptedPollMs: 50 });
    const stray = spawnStray();
    harness.processes.adopt(harness.launch('s-1'), stray);
    void harness.processes.start(harness.launch('s-2'));
    const { pid } = await harness.marker('s-2');
    await harness.processes.stopAll();
    expect([stray, pid].filter(alive)).toEqual([]);
    expect(harness.processes.running()).toEqual([]);
  });
});
