import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  findRunningSession,
  listRunningSessions,
  readConnectionFile,
  writeConnectionFile,
  type ConnectionInfo,
} from './connection-file';
import { connectionFilePath, piDirectories } from './pi-directories';
import { isRunning } from './process-liveness';
import { readProcessStatSync } from './process-stat';

const folders: string[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

async function dataDir(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'pi-connections-'));
  folders.push(folder);
  await mkdir(join(folder, 'sessions'));
  return folder;
}

const info = (sessionId: string, cwd: string, pid = process.pid): ConnectionInfo => ({
  sessionId,
  cwd,
  socketPath: `/tmp/${sessionId}.sock`,
  url: null,
  token: 'secret',
  pid,
});

describe('connection files', () => {
  it('are written private and read back', async () => {
    const dir = await dataDir();
    const file = connectionFilePath(dir, 's-1');
    await writeConnectionFile(file, info('s-1', '/work/a'));
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await readConnectionFile(file))._unsafeUnwrap()).toEqual(info('s-1', '/work/a'));
  });

  it('a malformed or missing file is an error naming it', async () => {
    const dir = await dataDir();
    const file = join(dir, 'sessions', 'x.connection.json');
    expect((await readConnectionFile(file))._unsafeUnwrapErr()).toContain(file);
    await writeFile(file, '{"sessionId": 3}');
    expect((await readConnectionFile(file))._unsafeUnwrapErr()).toContain('not a pi connection file');
  });

  it('finds the one session running in a directory, skipping files of dead processes', async () => {
    const dir = await dataDir();
    await writeConnectionFile(connectionFilePath(dir, 's-live'), info('s-live', '/work/a'));
    await writeConnectionFile(connectionFilePath(dir, 's-dead'), info('s-dead', '/work/a', 2 ** 22 + 12345));
    await writeConnectionFile(connectionFilePath(dir, 's-other'), info('s-other', '/work/b'));
    expect((await listRunningSessions(dir)).map((session) => session.sessionId)).toEqual(['s-live', 's-other']);
    expect((await findRunningSession(dir, { cwd: '/work/a' }))._unsafeUnwrap().sessionId).toBe('s-live');
    expect((await findRunningSession(dir, { cwd: '/work/c' }))._unsafeUnwrapErr()).toBe(
      'No session is running in /work/c',
    );
    expect((await findRunningSession(dir, { cwd: '/x', sessionId: 's-other' }))._unsafeUnwrap().cwd).toBe('/work/b');
  });

  it('says which sessions to choose from when several run in one directory', async () => {
    const dir = await dataDir();
    await writeConnectionFile(connectionFilePath(dir, 's-1'), info('s-1', '/work/a'));
    await writeConnectionFile(connectionFilePath(dir, 's-2'), info('s-2', '/work/a'));
    expect((await findRunningSession(dir, { cwd: '/work/a' }))._unsafeUnwrapErr()).toContain('s-1, s-2');
  });

  it('follows the XDG directories unless told otherwise', () => {
    const env = { XDG_DATA_HOME: '/d', XDG_CONFIG_HOME: '/c', XDG_RUNTIME_DIR: '/r' };
    expect(piDirectories(env)).toEqual({ dataDir: '/d/pi', configDir: '/c/pi', runtimeDir: '/r/pi' });
    expect(piDirectories({}, { dataDir: '/x' }).runtimeDir).toBe('/x/run');
  });
});

describe('isRunning', () => {
  it('is true for a live process, false once it exited, and false for a zombie not yet reaped', async () => {
    const { spawn } = await import('node:child_process');
    expect(isRunning(process.pid)).toBe(true);
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    const pid = child.pid as number;
    expect(isRunning(pid)).toBe(true);
    // Killed but not reaped while this test holds the event loop: a zombie.
    process.kill(pid, 'SIGKILL');
    const started = Date.now();
    while (Date.now() - started < 2000 && readProcessStatSync(pid)?.state !== 'Z') {
      // Busy-wait: no event loop turn, so node cannot reap the child yet.
    }
    expect(isRunning(pid)).toBe(false);
    await new Promise((resolve) => child.once('exit', resolve));
    expect(isRunning(pid)).toBe(false);
  });
});
