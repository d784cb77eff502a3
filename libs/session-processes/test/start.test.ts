import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from '@pi/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { SessionProcesses } from '../src/index';
import { alive, cleanUpHarnesses, createHarness } from './fixture';

afterEach(cleanUpHarnesses);

describe('starting a session process', { timeout: 60_000 }, () => {
  it('goes starting → idle when connected, active with presentations and idle again without', async () => {
    const { processes, changes, launch, marker } = await createHarness();
    const started = processes.start(launch('s-1'));
    expect(processes.status('s-1')).toBe('starting');
    expect(processes.running()).toEqual(['s-1']);
    const { pid } = await marker('s-1');
    expect(processes.pid('s-1')).toBe(pid);

    processes.connected('s-1');
    expect((await started).isOk()).toBe(true);
    processes.presentations('s-1', 2);
    processes.presentations('s-1', 3); // still active: no event
    processes.presentations('s-1', 0);
    processes.disconnected('s-1'); // it reconnects by itself: the status stays
    expect(processes.status('s-1')).toBe('idle');
    expect(changes.map(({ previous, status }) => `${previous}→${status}`)).toEqual([
      'closed→starting',
      'starting→idle',
      'idle→active',
      'active→idle',
    ]);
  });

  it('hands over the upstream connection on fd 3, never in argv or the environment', async () => {
    const { processes, launch, marker, credential } = await createHarness({
      env: { ...process.env, PI_PASSED: 'yes' },
    });
    void processes.start(launch('s-1'));
    const { pid, handoff } = await marker('s-1');
    expect(JSON.parse(handoff)).toEqual({
      version: 1,
      socketPath: expect.stringMatching(/coordinator\.sock$/),
      credential: credential('s-1'),
      sessionId: 's-1',
      workspaceId: 'w-0123456789abcdef',
    });
    if (process.platform !== 'linux') return;
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    const environ = readFileSync(`/proc/${pid}/environ`, 'utf8');
    expect(argv).toContain('--session\0s-1');
    expect(environ.split('\0')).toContain('PI_PASSED=yes');
    expect(argv).not.toContain(credential('s-1'));
    expect(environ).not.toContain(credential('s-1'));
  });

  it('appends the output to a private log file', async () => {
    const { processes, launch, marker, logDir } = await createHarness();
    void processes.start(launch('s-1'));
    await marker('s-1');
    const log = join(logDir, 's-1.log');
    await eventually(() => readFileSync(log, 'utf8').includes('fake session s-1 is up'));
    expect(statSync(logDir).mode & 0o777).toBe(0o700);
    expect(statSync(log).mode & 0o777).toBe(0o600);
    await processes.stop('s-1');
    void processes.start(launch('s-1'));
    await eventually(() => readFileSync(log, 'utf8').match(/is up/g)?.length === 2);
    expect(readFileSync(log, 'utf8')).toContain('stopping on SIGTERM');
  });

  it('stops a session that does not connect in time, and fails start_timeout', async () => {
    const { processes, changes, launch, markers } = await createHarness({ startTimeoutMs: 500 });
    const result = await processes.start(launch('s-1'));
    expect(result._unsafeUnwrapErr().code).toBe('start_timeout');
    expect(processes.status('s-1')).toBe('closed');
    expect(processes.running()).toEqual([]);
    // The start fails once the child's exit is seen. On a loaded machine the child may be stopped before it even
    // wrote its marker: the exit in the status change is then what shows it ended.
    for (const { pid } of markers('s-1')) expect(alive(pid)).toBe(false);
    expect(changes.at(-1)).toMatchObject({ status: 'closed', previous: 'starting', exit: { crashed: false } });
  });

  it('fails exited when the process ends before it connects', async () => {
    const { processes, changes, launch } = await createHarness({ modes: { 's-1': 'exit=3' } });
    const result = await processes.start(launch('s-1'));
    expect(result._unsafeUnwrapErr()).toMatchObject({
      code: 'exited',
      message: expect.stringContaining('exit code 3'),
    });
    expect(changes.at(-1)).toMatchObject({ status: 'closed', exit: { code: 3, signal: null, crashed: true } });
  });

  it('starts one process for concurrent starts of one session', async () => {
    const { processes, launch, markers } = await createHarness();
    const starts = [processes.start(launch('s-1')), processes.start(launch('s-1'))];
    await eventually(() => markers('s-1').length > 0);
    processes.connected('s-1');
    expect((await Promise.all(starts)).every((result) => result.isOk())).toBe(true);
    expect((await processes.start(launch('s-1'))).isOk()).toBe(true);
    expect(markers('s-1')).toHaveLength(1);
  });

  it('starts a session again once its stop is done', async () => {
    const { processes, launch, markers, marker } = await createHarness();
    void processes.start(launch('s-1'));
    const first = await marker('s-1');
    processes.connected('s-1');
    const stopping = processes.stop('s-1');
    const again = processes.start(launch('s-1'));
    await stopping;
    expect(alive(first.pid)).toBe(false);
    await eventually(() => markers('s-1').length === 2);
    processes.connected('s-1');
    expect((await again).isOk()).toBe(true);
    expect(processes.pid('s-1')).toBe(markers('s-1').find((one) => one.pid !== first.pid)?.pid);
  });

  it('fails spawn_failed for a missing directory or program, with no process left', async () => {
    const { processes, launch, changes } = await createHarness();
    const missing = await processes.start({ ...launch('s-1'), cwd: '/nonexistent/pi/dir' });
    expect(missing._unsafeUnwrapErr()).toMatchObject({
      code: 'spawn_failed',
      message: expect.stringContaining('/nonexistent/pi/dir'),
    });
    expect(processes.running()).toEqual([]);
    expect(changes.map(({ previous, status }) => `${previous}→${status}`)).toEqual([
      'closed→starting',
      'starting→closed',
    ]);

    const { logDir } = await createHarness();
    const noProgram = new SessionProcesses({
      logDir,
      command: () => ({ file: '/nonexistent/pi-session', args: [] }),
      handoff: (of) => ({ version: 1, socketPath: '/s', credential: 'c', ...of }),
    });
    expect((await noProgram.start(launch('s-1')))._unsafeUnwrapErr().code).toBe('spawn_failed');
    expect(noProgram.status('s-1')).toBe('closed');
  });

  it('fails spawn_failed before spawning for a handoff that is invalid or for another session', async () => {
    const { launch, logDir } = await createHarness();
    let spawned = 0;
    const processes = new SessionProcesses({
      logDir,
      command: () => {
        spawned++;
        return { file: process.execPath, args: [] };
      },
      handoff: (of) => ({ version: 1, socketPath: '/s', credential: 'c', sessionId: of.sessionId, workspaceId: 'w-x' }),
    });
    const other = await processes.start(launch('s-1'));
    expect(other._unsafeUnwrapErr()).toMatchObject({
      code: 'spawn_failed',
      message: expect.stringContaining('for another session'),
    });
    const badId = await processes.start({ ...launch('../s-2'), workspaceId: 'w-x' });
    expect(badId._unsafeUnwrapErr().message).toContain('not valid (sessionId)');
    expect(spawned).toBe(0);
    expect(processes.running()).toEqual([]);
  });
});
