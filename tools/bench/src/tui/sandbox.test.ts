import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { processesMarked } from '../agents/process-stats';
import { isAlive } from '../agents/stop-processes';
import { SANDBOX_MARKER, createSandbox, removeAllSandboxes } from './sandbox';

describe('a cold-start sandbox', () => {
  it('stops every process started with its environment, detached or not, when the run ends or fails', async () => {
    const box = await createSandbox();
    const folder = dirname(box.project);
    // As pi's coordinator is: its own session, not a child anyone waits for.
    const daemon = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {
      env: box.env,
      detached: true,
      stdio: 'ignore',
    });
    daemon.unref();
    const marker = `${SANDBOX_MARKER}=${folder}`;
    while (!(await processesMarked(marker)).includes(daemon.pid ?? -1)) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }

    await removeAllSandboxes();

    expect(isAlive(daemon.pid ?? -1)).toBe(false);
    expect(await processesMarked(marker)).toEqual([]);
    expect(existsSync(folder)).toBe(false);
  });
});
