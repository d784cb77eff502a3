import { readdir, readFile, stat } from 'node:fs/promises';
import { err, ok, type Result } from 'neverthrow';
import { MAX_RESOURCE_FILE_BYTES } from '@pi/prompt-resources';

/**
 * The text of a skill or template file; null when there is none (missing, or a directory), an error sentence when
 * it exists and cannot be used (unreadable, over the size limit, not UTF-8).
 */
export async function readResourceFile(path: string): Promise<Result<string, string> | null> {
  let size: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) return null;
    size = info.size;
  } catch (error) {
    return isMissing(error) ? null : err(reasonOf(error));
  }
  if (size > MAX_RESOURCE_FILE_BYTES) {
    return err(`it is ${Math.ceil(size / 1024)} KiB, over the ${MAX_RESOURCE_FILE_BYTES / 1024} KiB limit`);
  }
  try {
    return ok(new TextDecoder('utf-8', { fatal: true }).decode(await readFile(path)));
  } catch (error) {
    return err(error instanceof TypeError ? 'it is not UTF-8 text' : reasonOf(error));
  }
}

/** The names in `directory`, sorted so discovery does not depend on the file system's order; [] when it is absent. */
export async function sortedEntries(directory: string): Promise<string[]> {
  try {
    return (await readdir(directory)).sort();
  } catch {
    return [];
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (code ?? String(error));
}
