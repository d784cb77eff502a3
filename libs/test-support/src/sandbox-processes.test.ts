import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isRunning } from '@pi/connection-files';
import { startProgram } from './pi-programs';
import { createPiSandbox, killSandboxProcesses, sandboxProcesses, type PiSandbox } from './pi-sandbox';

let sandbox: PiSandbox | undefined;
afterEach(async () => {
  if (sandbox !== undefined) await killSandboxProcesses(sandbox);
  await sandbox?.remove();
  sandbox = undefined;
});

/** A program that starts a detached child (a process group of its own) with its environment, as a coordinator
 * starts a session, and prints the child's pid. */
const PARENT = `import { spawn } from 'node:child_process';
const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { detached: true, stdio: 'ignore' });
process.stdout.write(child.pid + '\\n');
setInterval(() => {}, 1000);
`;

describe.runIf(existsSync('/proc/self/environ'))('the processes of a pi sandbox', () => {
  it('are those started with its environment, detached ones too, though no file names them; all are killed', async () => {
    const box = (sandbox = await createPiSandbox({ prefix: 'pts-' }));
    const bin = join(box.root, 'parent.mjs');
    await writeFile(bin, PARENT);
    const parent = startProgram(bin, [], { cwd: box.root, env: box.env });
    // Its own line, not console.log's: a run with FORCE_COLOR would color a logged number.
    await new Promise<void>((printed) =>
      parent.child.stdout.on('data', () => parent.stdout().endsWith('\n') && printed()),
    );
    const child = Number(parent.stdout().trim());
    // Started by the test with its own environment: not the sandbox's.
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    try {
      expect(sandboxProcesses(box).sort()).toEqual([parent.child.pid, child].sort());
      await killSandboxProcesses(box);
      expect(await parent.exited).toEqual({ code: null, signal: 'SIGKILL' });
      expect(isRunning(child)).toBe(false);
      expect(sandboxProcesses(box)).toEqual([]);
      expect(isRunning(other.pid ?? 0)).toBe(true);
    } finally {
      other.kill('SIGKILL');
    }
  });
});
