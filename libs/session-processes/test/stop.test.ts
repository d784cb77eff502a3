import { eventually } from '@pi/test-support';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { alive, cleanUpHarnesses, createHarness, type Harness } from './fixture';

afterEach(async () => {
  vi.restoreAllMocks();
  await cleanUpHarnesses();
});

async function connectedSession(harness: Harness, sessionId: string): Promise<number> {
  const started = harness.processes.start(harness.launch(sessionId));
  const { pid } = await harness.marker(sessionId);
  harness.processes.connected(sessionId);
  expect((await started).isOk()).toBe(true);
  return pid;
}

describe('stopping and losing session processes', { timeout: 60_000 }, () => {
  it('stops gracefully on SIGTERM: closed, not crashed', async () => {
    const harness = await createHarness();
    const pid = await connectedSession(harness, 's-1');
    await harness.processes.stop('s-1');
    expect(alive(pid)).toBe(false);
    expect(harness.processes.status('s-1')).toBe('closed');
    expect(harness.processes.pid('s-1')).toBeUndefined();
    expect(harness.changes.at(-1)).toEqual({
      sessionId: 's-1',
      status: 'closed',
      previous: 'idle',
      exit: { code: 0, signal: null, crashed: false },
    });
    await harness.processes.stop('s-1'); // unknown by now: nothing to do
    await harness.processes.stop('s-never');
  });

  it('kills the process group of a session that ignores SIGTERM, grandchildren included', async () => {
    const harness = await createHarness({ stopTimeoutMs: 300, modes: { 's-1': 'ignore-term' } });
    await connectedSession(harness, 's-1');
    const { pid, grandchild } = await harness.marker('s-1');
    expect(grandchild !== undefined && alive(grandchild)).toBe(true);
    await harness.processes.stop('s-1');
    expect(harness.changes.at(-1)?.exit).toEqual({ code: null, signal: 'SIGKILL', crashed: false });
    expect(alive(pid)).toBe(false);
    await eventually(() => grandchild !== undefined && !alive(grandchild));
  });

  it('leaves no grandchild behind a session that exits while its tools still run', async () => {
    const harness = await createHarness({ modes: { 's-1': 'leave-child' } });
    await connectedSession(harness, 's-1');
    const { grandchild } = await harness.marker('s-1');
    await harness.processes.stop('s-1');
    expect(harness.changes.at(-1)?.exit).toEqual({ code: 0, signal: null, crashed: false });
    await eventually(() => grandchild !== undefined && !alive(grandchild));
  });

  it('notices a crash: closed, crashed, with the signal, and not restarted', async () => {
    const harness = await createHarness();
    const pid = await connectedSession(harness, 's-1');
    harness.processes.presentations('s-1', 1);
    process.kill(pid, 'SIGKILL');
    await eventually(() => harness.processes.status('s-1') === 'closed');
    expect(harness.changes.at(-1)).toEqual({
      sessionId: 's-1',
      status: 'closed',
      previous: 'active',
      exit: { code: null, signal: 'SIGKILL', crashed: true },
    });
    expect(harness.processes.running()).toEqual([]);
    expect(harness.markers('s-1')).toHaveLength(1);
  });

  it('starts a session anew whose process died a moment ago, before its exit was noticed', async () => {
    const harness = await createHarness();
    const pid = await connectedSession(harness, 's-1');
    process.kill(pid, 'SIGKILL');
    // No turn of the event loop until the kernel has it dead: its exit has not reached us yet.
    while (alive(pid)) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
    expect(harness.processes.status('s-1')).toBe('idle');
    const restarted = harness.processes.start(harness.launch('s-1'));
    await eventually(() => harness.markers('s-1').length === 2);
    harness.processes.connected('s-1');
    expect((await restarted).isOk()).toBe(true);
    expect(harness.changes.map(({ previous, status }) => `${previous}→${status}`).slice(-3)).toEqual([
      'idle→closed',
      'closed→starting',
      'starting→idle',
    ]);
  });

  it('fails the start of a session stopped before it connected', async () => {
    const harness = await createHarness();
    const started = harness.processes.start(harness.launch('s-1'));
    await harness.marker('s-1');
    await harness.processes.stop('s-1');
    harness.processes.connected('s-1'); // too late: nothing changes
    expect((await started)._unsafeUnwrapErr()).toMatchObject({
      code: 'exited',
      message: expect.stringContaining('stopped'),
    });
    expect(harness.processes.status('s-1')).toBe('closed');
  });

  it('stopAll stops every session and waits for them all', async () => {
    const harness = await createHarness({ stopTimeoutMs: 300, modes: { 's-4': 'ignore-term' } });
    const ids = ['s-1', 's-2', 's-3', 's-4', 's-5'];
    const pids = await Promise.all(ids.map((id) => connectedSession(harness, id)));
    expect([...harness.processes.running()].sort()).toEqual(ids);
    await harness.processes.stopAll();
    expect(harness.processes.running()).toEqual([]);
    expect(pids.filter(alive)).toEqual([]);
    expect(ids.map((id) => harness.processes.status(id))).toEqual(ids.map(() => 'closed'));
  });

  it('keeps tracking when a listener throws, and warns about it', async () => {
    const warning = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const harness = await createHarness();
    harness.processes.onStatusChanged(() => {
      throw new Error('listener bug');
    });
    const seen: string[] = [];
    harness.processes.onStatusChanged((change) => seen.push(change.status));
    await connectedSession(harness, 's-1');
    await harness.processes.stop('s-1');
    expect(seen).toEqual(['starting', 'idle', 'closed']);
    expect(harness.changes.map((change) => change.status)).toEqual(['starting', 'idle', 'closed']);
    const ours = warning.mock.calls.filter(([, options]) => JSON.stringify(options).includes('PI_STATUS_LISTENER'));
    expect(ours.map(([message]) => String(message))).toEqual([
      expect.stringContaining('s-1 → starting: listener bug'),
      expect.stringContaining('s-1 → idle: listener bug'),
      expect.stringContaining('s-1 → closed: listener bug'),
    ]);
  });

  it('ignores presentations before the connection and while stopping; refuses a count that is not one', async () => {
    const harness = await createHarness();
    void harness.processes.start(harness.launch('s-1'));
    harness.processes.presentations('s-1', 0);
    harness.processes.presentations('s-1', 2);
    expect(harness.processes.status('s-1')).toBe('starting');
    expect(() => harness.processes.presentations('s-1', -1)).toThrow(RangeError);
    expect(() => harness.processes.presentations('s-1', 1.5)).toThrow(RangeError);
    await harness.marker('s-1');
    harness.processes.connected('s-1');
    const stopping = harness.processes.stop('s-1');
    harness.processes.presentations('s-1', 2);
    await stopping;
    expect(harness.changes.map((change) => change.status)).toEqual(['starting', 'idle', 'closed']);
  });
});
