import { execFile } from 'node:child_process';
import { mkdir, open, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * A small tmpfs mounted on `directory`, standing in for a full disk: only root may mount one, and some containers
 * refuse even root. Resolves with the reason when it cannot be had.
 */
export async function mountSmallDisk(
  directory: string,
  bytes: number,
): Promise<{ mounted: true } | { mounted: false; reason: string }> {
  if (process.getuid?.() !== 0) return { mounted: false, reason: 'skipped: needs root' };
  await mkdir(directory, { recursive: true, mode: 0o700 });
  try {
    await run('mount', ['-t', 'tmpfs', '-o', `size=${bytes},mode=0700`, 'tmpfs', directory]);
    return { mounted: true };
  } catch (error) {
    const detail =
      (error as { stderr?: string }).stderr?.trim() || (error instanceof Error ? error.message : String(error));
    return { mounted: false, reason: `skipped: needs root (mount -t tmpfs refused: ${detail})` };
  }
}

export async function unmount(directory: string): Promise<void> {
  // Lazily: a process that still holds a file there must not keep the soak's home from being removed.
  await run('umount', ['-l', directory]);
}

/** Writes a filler file in `directory` until the disk is full; returns how many bytes it took, and the file. */
export async function fillDisk(directory: string): Promise<{ file: string; bytes: number }> {
  const file = join(directory, 'soak-filler');
  const handle = await open(file, 'w');
  const chunk = Buffer.alloc(64 * 1024, 0x78);
  let bytes = 0;
  try {
    for (;;) {
      const { bytesWritten } = await handle.write(chunk, 0, chunk.length);
      bytes += bytesWritten;
      if (bytesWritten < chunk.length) break;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    await handle.close();
  }
  return { file, bytes };
}

export function freeDisk(file: string): Promise<void> {
  return unlink(file);
}
