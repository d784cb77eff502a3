import { chmod, mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { readCoordinatorConnection, workspaceIdOf, writeCoordinatorConnection } from './coordinator-files';
import { coordinatorFiles, readPidFile } from './coordinator-paths';
import { findPiProgram } from './find-program';
import { piDirectories } from './pi-directories';

let root: string | undefined;
afterEach(async () => {
  if (root !== undefined) await rm(root, { recursive: true, force: true });
  root = undefined;
});
const temp = async () => (root = await mkdtemp(join(tmpdir(), 'pi-cf-')));

describe("the coordinator's runtime files", () => {
  it('live in the runtime directory, with its log beside the sessions', () => {
    const files = coordinatorFiles(piDirectories({ XDG_RUNTIME_DIR: '/run/u', XDG_DATA_HOME: '/d' }));
    expect(files).toEqual({
      socketPath: '/run/u/pi/coordinator.sock',
      pidFile: '/run/u/pi/coordinator.pid',
      lockFile: '/run/u/pi/coordinator.lock',
      connectionFile: '/run/u/pi/coordinator.json',
      logDir: '/d/pi/logs',
    });
  });

  it('writes the connection file private (0600) and reads it back', async () => {
    const file = join(await temp(), 'coordinator.json');
    const info = { socketPath: '/run/c.sock', token: 't', pid: 42 };
    await writeCoordinatorConnection(file, info);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await readCoordinatorConnection(file))._unsafeUnwrap()).toEqual(info);
  });

  it('reads the pid of a lock or pid file, and none from a missing file or one that holds no pid', async () => {
    const file = join(await temp(), 'coordinator.lock');
    expect(await readPidFile(file)).toBeUndefined();
    await writeFile(file, '4242\n');
    expect(await readPidFile(file)).toBe(4242);
    for (const text of ['', 'x', '-3', '1.5']) {
      await writeFile(file, text);
      expect(await readPidFile(file), text).toBeUndefined();
    }
  });

  it('reads a missing, non-JSON or foreign file as an error value naming it', async () => {
    const dir = await temp();
    expect((await readCoordinatorConnection(join(dir, 'none.json')))._unsafeUnwrapErr()).toMatch(/none\.json: ENOENT/);
    await writeFile(join(dir, 'text.json'), 'not json');
    expect((await readCoordinatorConnection(join(dir, 'text.json')))._unsafeUnwrapErr()).toMatch(
      /text\.json is not JSON/,
    );
    await writeFile(join(dir, 'other.json'), JSON.stringify({ socketPath: '/s', token: 't', pid: 1, extra: true }));
    expect((await readCoordinatorConnection(join(dir, 'other.json')))._unsafeUnwrapErr()).toMatch(
      /is not a pi coordinator connection file/,
    );
  });

  it('gives every directory one workspace id, and different directories different ones', () => {
    expect(workspaceIdOf('/projects/red')).toBe(workspaceIdOf('/projects/red'));
    expect(workspaceIdOf('/projects/red')).not.toBe(workspaceIdOf('/projects/blue'));
    expect(workspaceIdOf('/projects/red')).toMatch(/^w-[0-9a-f]{16}$/);
  });
});

describe('finding another pi program', () => {
  it('prefers the bundle beside the caller, then node_modules/.bin upward, then $PATH, else nothing', async () => {
    const dir = await temp();
    const caller = pathToFileURL(join(dir, 'dist', 'apps', 'tui', 'pi-tui.mjs')).href;
    expect(await findPiProgram('pi-session', caller, { PATH: '' })).toBeUndefined();

    const onPath = join(dir, 'bin', 'pi-session');
    await mkdir(join(dir, 'bin'));
    await writeFile(onPath, '');
    await chmod(onPath, 0o755);
    expect(await findPiProgram('pi-session', caller, { PATH: join(dir, 'bin') })).toBe(onPath);

    const linked = join(dir, 'node_modules', '.bin', 'pi-session');
    await mkdir(join(dir, 'node_modules', '.bin'), { recursive: true });
    await writeFile(linked, '');
    expect(await findPiProgram('pi-session', caller, { PATH: join(dir, 'bin') })).toBe(linked);

    const bundled = join(dir, 'dist', 'apps', 'session', 'pi-session.mjs');
    await mkdir(join(dir, 'dist', 'apps', 'session'), { recursive: true });
    await writeFile(bundled, '');
    expect(await findPiProgram('pi-session', caller, { PATH: join(dir, 'bin') })).toBe(bundled);
    expect(await findPiProgram('pi-coordinator', caller, { PATH: '' })).toBeUndefined();
  });
});
