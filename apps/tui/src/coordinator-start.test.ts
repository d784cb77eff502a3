import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { coordinatorFiles } from '@pi/connection-files/coordinator-paths';
import { piDirectories } from '@pi/connection-files/directories';
import { startCoordinatorEarly } from './coordinator-start';

const folders: string[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

/**
 * A bundle layout in a temporary folder: `tui/pi-tui.mjs` (the `from` of the entry) beside a stand-in
 * `coordinator/pi-coordinator.mjs` that prints the arguments it was started with, and pi's directories.
 */
async function layout() {
  const root = await mkdtemp(join(tmpdir(), 'pi-early-start-'));
  folders.push(root);
  await mkdir(join(root, 'coordinator'));
  await mkdir(join(root, 'tui'));
  const standIn = "process.stdout.write(JSON.stringify(process.argv.slice(2)) + '\\n');\n";
  await writeFile(join(root, 'coordinator', 'pi-coordinator.mjs'), standIn);
  const env = { XDG_RUNTIME_DIR: join(root, 'run'), XDG_DATA_HOME: join(root, 'data'), PATH: '' };
  const directories = piDirectories(env, {});
  await mkdir(directories.runtimeDir, { recursive: true, mode: 0o700 });
  return { directories, env, from: pathToFileURL(join(root, 'tui', 'pi-tui.mjs')).href };
}

describe('the coordinator start pi-tui --start begins before the rest of pi-tui loads', () => {
  it('runs `pi-coordinator start` found beside pi-tui, with the directories and manifest, when no coordinator holds the lock', async () => {
    const { directories, env, from } = await layout();
    const early = await startCoordinatorEarly(directories, '/m.json', env, from);
    expect(early).toBeDefined();
    const outcome = await early?.outcome;
    expect(outcome?.code).toBe(0);
    expect(JSON.parse(outcome?.output ?? '')).toEqual([
      'start',
      '--data-dir',
      directories.dataDir,
      '--config-dir',
      directories.configDir,
      '--manifest',
      '/m.json',
    ]);
  });

  it('begins nothing while a live process holds the lock: whether it answers is checked later', async () => {
    const { directories, env, from } = await layout();
    await writeFile(coordinatorFiles(directories).lockFile, `${process.pid}\n`);
    expect(await startCoordinatorEarly(directories, undefined, env, from)).toBeUndefined();
  });

  it('begins one when the lock was left by a process that is gone', async () => {
    const { directories, env, from } = await layout();
    // A pid above the kernel's maximum runs nowhere.
    await writeFile(coordinatorFiles(directories).lockFile, '4194305\n');
    expect(await (await startCoordinatorEarly(directories, undefined, env, from))?.outcome).toMatchObject({ code: 0 });
  });

  it('begins nothing when pi-coordinator cannot be found (the launch then says so)', async () => {
    const { directories, env } = await layout();
    const nowhere = pathToFileURL(join(tmpdir(), 'pi-nowhere', 'tui', 'pi-tui.mjs')).href;
    expect(await startCoordinatorEarly(directories, undefined, env, nowhere)).toBeUndefined();
  });
});
