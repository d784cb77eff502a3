import { existsSync, statSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually } from '@pi/test-support';
import {
  PROCESS_TEST_TIMEOUT_MS,
  createCoordinatorSandbox,
  deadPid,
  isAlive,
  readText,
  type CoordinatorSandbox,
} from './coordinator-sandbox';

const RUNNING = /^pi-coordinator: running \(pid (\d+)\) on (\S+)$/m;

let sandbox: CoordinatorSandbox | undefined;
afterEach(async () => {
  await sandbox?.cleanUp();
  sandbox = undefined;
}, PROCESS_TEST_TIMEOUT_MS);

async function newSandbox(): Promise<CoordinatorSandbox> {
  sandbox = await createCoordinatorSandbox();
  return sandbox;
}

function modeOf(path: string): number {
  return statSync(path).mode & 0o777;
}

function runtimeFiles(box: CoordinatorSandbox): string[] {
  const { socketPath, pidFile, lockFile, connectionFile } = box.files;
  return [socketPath, pidFile, lockFile, connectionFile];
}

describe('pi-coordinator flags', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('--help prints the usage and exits 0; a bad flag or command is one line and exit 2', async () => {
    const box = await newSandbox();
    const help = await box.coordinator(['--help']);
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toMatch(/^Usage: pi-coordinator \[start \| run \| stop \| status\]/);
    const flag = await box.coordinator(['start', '--nope']);
    expect(flag).toMatchObject({
      code: 2,
      stdout: '',
      stderr: expect.stringMatching(/^pi-coordinator: .*--nope.*\n$/),
    });
    expect(flag.stderr.trimEnd()).not.toContain('\n');
    expect(await box.coordinator(['restart'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'pi-coordinator: Unknown command "restart": use start, run, stop, status or enroll (see --help)\n',
    });
    // None of these started anything.
    expect(existsSync(box.files.lockFile)).toBe(false);
  });
});

describe('pi-coordinator start, status and stop', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('start runs one in the background with private runtime files; status says so; stop removes them', async () => {
    const box = await newSandbox();
    expect(await box.coordinator(['status', '--json'])).toEqual({
      code: 3,
      stdout: '{"running":false}\n',
      stderr: '',
    });
    const started = await box.coordinator(['start']);
    expect(started, started.stderr).toMatchObject({ code: 0, stdout: expect.stringMatching(RUNNING) });
    const [, pidText, socketPath] = RUNNING.exec(started.stdout) ?? [];
    const pid = Number(pidText);
    expect(socketPath).toBe(box.files.socketPath);
    expect(isAlive(pid)).toBe(true);

    for (const file of runtimeFiles(box)) expect(modeOf(file).toString(8), file).toBe('600');
    expect(modeOf(dirname(box.files.socketPath)).toString(8)).toBe('700');
    expect(statSync(box.files.socketPath).isSocket()).toBe(true);
    expect(readText(box.files.pidFile).trim()).toBe(String(pid));
    expect(readText(box.files.lockFile).trim()).toBe(String(pid));
    expect(JSON.parse(readText(box.files.connectionFile))).toEqual({ socketPath, token: expect.any(String), pid });

    const status = await box.coordinator(['status', '--json']);
    expect(status).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(status.stdout)).toEqual({ running: true, pid, socketPath });
    expect((await box.coordinator(['status'])).stdout).toBe(`pi-coordinator: running (pid ${pid}) on ${socketPath}\n`);

    expect(await box.coordinator(['stop'])).toEqual({ code: 0, stdout: 'pi-coordinator: stopped\n', stderr: '' });
    expect(isAlive(pid)).toBe(false);
    for (const file of runtimeFiles(box)) expect(existsSync(file), file).toBe(false);
    expect(await box.coordinator(['stop'])).toEqual({ code: 0, stdout: 'pi-coordinator: not running\n', stderr: '' });
  });

  it('a second start finds the one running: "already running" with its pid, exit 0', async () => {
    const box = await newSandbox();
    const first = await box.coordinator(['start']);
    const pid = RUNNING.exec(first.stdout)?.[1];
    expect(pid, first.stderr).toBeDefined();
    const second = await box.coordinator(['start']);
    expect(second).toEqual({
      code: 0,
      stdout: `pi-coordinator: already running (pid ${pid}) on ${box.files.socketPath}\n`,
      stderr: '',
    });
  });

  it('two starts at once leave exactly one coordinator, which both name', async () => {
    const box = await newSandbox();
    const both = await Promise.all([box.coordinator(['start']), box.coordinator(['start'])]);
    for (const run of both) expect(run, run.stderr).toMatchObject({ code: 0 });
    const pids = both.map((run) => /\(pid (\d+)\)/.exec(run.stdout)?.[1]);
    expect(pids[0]).toBeDefined();
    expect(pids[1]).toBe(pids[0]);
    // A losing `run` may still be starting when both starts return: it finds the lock held and exits.
    if (box.coordinatorProcesses() !== undefined) {
      await eventually(() => box.coordinatorProcesses()?.length === 1);
      expect(box.coordinatorProcesses()).toEqual([Number(pids[0])]);
    }
    expect(box.log().match(/: listening on /g)).toHaveLength(1);
    expect(readText(box.files.lockFile).trim()).toBe(pids[0]);
  });

  it('start takes over a lock left by a process that is gone', async () => {
    const box = await newSandbox();
    const gone = await deadPid();
    expect(isAlive(gone)).toBe(false);
    await mkdir(dirname(box.files.lockFile), { recursive: true, mode: 0o700 });
    await writeFile(box.files.lockFile, `${gone}\n`, { mode: 0o600 });
    const started = await box.coordinator(['start']);
    expect(started, started.stderr).toMatchObject({ code: 0, stdout: expect.stringMatching(RUNNING) });
    const pid = RUNNING.exec(started.stdout)?.[1];
    expect(readText(box.files.lockFile).trim()).toBe(pid);
    expect(JSON.parse((await box.coordinator(['status', '--json'])).stdout)).toMatchObject({
      running: true,
      pid: Number(pid),
    });
  });

  it('SIGTERM to `pi-coordinator run` stops it cleanly: exit 0, its runtime files removed', async () => {
    const box = await newSandbox();
    const coordinator = box.runInForeground();
    await eventually(() => /: listening on /.test(coordinator.stdout()));
    for (const file of runtimeFiles(box)) expect(existsSync(file), file).toBe(true);
    coordinator.child.kill('SIGTERM');
    expect(await coordinator.exited).toEqual({ code: 0, signal: null });
    expect(coordinator.stdout()).toMatch(/^pi-coordinator: stopped on SIGTERM$/m);
    for (const file of runtimeFiles(box)) expect(existsSync(file), file).toBe(false);
  });

  it('one whose runtime folder was wiped under it leaves the files of the coordinator started since when it stops', async () => {
    const box = await newSandbox();
    const old = box.runInForeground();
    await eventually(() => /: listening on /.test(old.stdout()));
    await rm(dirname(box.files.socketPath), { recursive: true, force: true });
    const started = await box.coordinator(['start']);
    const pid = RUNNING.exec(started.stdout)?.[1];
    expect(pid, started.stderr).toBeDefined();

    old.child.kill('SIGTERM');
    expect(await old.exited).toEqual({ code: 0, signal: null });

    for (const file of runtimeFiles(box)) expect(existsSync(file), file).toBe(true);
    expect(JSON.parse((await box.coordinator(['status', '--json'])).stdout)).toMatchObject({
      running: true,
      pid: Number(pid),
    });
  });
});
