import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isRunning } from '@pi/connection-files';
import { runProgram, startProgram } from './pi-programs';
import { createPiSandbox, killSandboxProcesses, sandboxPids, type PiSandbox } from './pi-sandbox';

let sandbox: PiSandbox<'project'> | undefined;
afterEach(async () => {
  if (sandbox !== undefined) await killSandboxProcesses(sandbox);
  await sandbox?.remove();
  sandbox = undefined;
});

async function newSandbox(env?: NodeJS.ProcessEnv): Promise<PiSandbox<'project'>> {
  sandbox = await createPiSandbox({ prefix: 'pts-', folders: ['project'], env });
  return sandbox;
}

/** A program of the sandbox: its command line names the root. */
async function writeBin(box: PiSandbox<'project'>, source: string): Promise<string> {
  const bin = join(box.root, 'program.mjs');
  await writeFile(bin, source);
  return bin;
}

describe('a pi sandbox', () => {
  it('is a private home: XDG directories and HOME in its root, its folders made, the run kept from the programs', async () => {
    const box = await newSandbox({ PI_EXTRA: 'set' });
    const { root, env, directories } = box;
    expect(env).toMatchObject({
      XDG_DATA_HOME: join(root, 'data'),
      XDG_CONFIG_HOME: join(root, 'config'),
      XDG_RUNTIME_DIR: join(root, 'run'),
      HOME: join(root, 'home'),
      PI_EXTRA: 'set',
    });
    expect(Object.keys(env).filter((key) => /^(OTEL_|VITEST|NODE_OPTIONS$)/.test(key))).toEqual([]);
    expect(directories).toEqual({
      dataDir: join(root, 'data', 'pi'),
      configDir: join(root, 'config', 'pi'),
      runtimeDir: join(root, 'run', 'pi'),
    });
    expect(box.files.pidFile).toBe(join(root, 'run', 'pi', 'coordinator.pid'));
    expect(existsSync(box.folders.project)).toBe(true);
    await box.remove();
    expect(existsSync(root)).toBe(false);
  });

  it('runs a program to its end from a directory, with its exit code and what it printed', async () => {
    const box = await newSandbox();
    const bin = await writeBin(box, 'console.log(process.cwd()); console.error(process.env.HOME); process.exit(3);\n');
    expect(await runProgram(bin, [], { cwd: box.folders.project, env: box.env })).toEqual({
      code: 3,
      stdout: `${box.folders.project}\n`,
      stderr: `${box.env['HOME']}\n`,
    });
  });

  it('says why a program could not start (its folder missing), instead of crashing the run or waiting forever', async () => {
    const box = await newSandbox();
    const bin = await writeBin(box, 'console.log("ran");\n');
    const missing = join(box.root, 'no-such-folder');
    const run = await runProgram(bin, [], { cwd: missing, env: box.env });
    expect(run).toEqual({
      code: null,
      stdout: '',
      stderr: expect.stringContaining(`Cannot start ${bin} in ${missing}: `),
    });
    expect(run.stderr).toContain('ENOENT');
    expect(await startProgram(bin, [], { cwd: missing, env: box.env }).exited).toEqual({ code: null, signal: null });
  });

  it('kills what its files name and the pids it is given, and leaves a pid that is not its own alone', async () => {
    const box = await newSandbox();
    const bin = await writeBin(box, 'console.log("up"); setInterval(() => {}, 1000);\n');
    const start = () => startProgram(bin, [], { cwd: box.root, env: box.env });
    const named = start();
    const given = start();
    await Promise.all([named, given].map((program) => new Promise((up) => program.child.stdout.once('data', up))));
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      await mkdir(box.directories.runtimeDir, { recursive: true });
      await writeFile(box.files.pidFile, `${named.child.pid}\n${other.pid}\n`);
      const pids = [named.child.pid, given.child.pid];
      expect(sandboxPids(box, [given.child.pid]).sort()).toEqual(pids.sort());
      await killSandboxProcesses(box, [given.child.pid]);
      expect(await named.exited).toEqual({ code: null, signal: 'SIGKILL' });
      expect(await given.exited).toEqual({ code: null, signal: 'SIGKILL' });
      expect(isRunning(other.pid ?? 0)).toBe(true);
    } finally {
      other.kill('SIGKILL');
    }
  });
});
