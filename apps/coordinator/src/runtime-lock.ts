import { mkdir, open, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { err, ok, type Result } from 'neverthrow';
import { isRunning, readPidFile } from '@pi/connection-files';

export interface RuntimeLock {
  release(): Promise<void>;
}

/**
 * One coordinator per user: the lock file is created exclusively and holds the owner's pid. A lock whose owner is
 * gone (a crash or SIGKILL) is stale and taken over; a live owner means a coordinator already runs.
 */
export async function acquireRuntimeLock(path: string): Promise<Result<RuntimeLock, { running: number }>> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(path, 'wx', 0o600);
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      return ok({
        release: async () => {
          if ((await readPidFile(path)) === process.pid) await rm(path, { force: true });
        },
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = await readPidFile(path);
    // An owner that has not written its pid yet is starting: it holds the lock.
    if (owner === undefined || (owner !== process.pid && isRunning(owner))) return err({ running: owner ?? 0 });
    await rm(path, { force: true });
  }
  return err({ running: (await readPidFile(path)) ?? 0 });
}
