import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export interface AtomicWriteOptions {
  /** The file's mode, set on the temporary file before any byte is written (so the secret is never world-readable). */
  readonly fileMode: number;
  /** The mode of the containing directory: a missing one is created with it (default 0700); an existing one is
   *  tightened to it only when `tightenDirectory` is set (a shared config directory is left as it is). */
  readonly directoryMode?: number;
  readonly tightenDirectory?: boolean;
}

/**
 * Replaces a file all at once: the content goes to a fresh temporary file beside it (created exclusively with
 * `fileMode`), is synced, then renamed over the target. A reader sees the old file or the new one, never half
 * of one, and a crash leaves at worst a stray temporary file, never a torn target.
 */
export async function writeFileAtomic(path: string, content: string, options: AtomicWriteOptions): Promise<void> {
  const directory = dirname(path);
  const directoryMode = options.directoryMode ?? 0o700;
  await mkdir(directory, { recursive: true, mode: directoryMode });
  if (options.tightenDirectory === true) await chmod(directory, directoryMode);
  const temporary = join(directory, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temporary, 'wx', options.fileMode);
  try {
    // The umask may have narrowed the mode at creation; set it exactly before the content arrives.
    await handle.chmod(options.fileMode);
    await handle.writeFile(content, 'utf8');
    await handle.sync();
    await handle.close();
    await rename(temporary, path);
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(temporary, { force: true });
    throw error;
  }
}
