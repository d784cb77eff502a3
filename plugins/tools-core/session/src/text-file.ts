import { readFile, stat } from 'node:fs/promises';
import { writeFileAtomic } from '@pi/atomic-file';
import { looksBinary } from './binary-sniff';

/** A new file's mode: what `touch` gives under the usual umask. */
const NEW_FILE_MODE = 0o644;

/** What a file held before a change: its text and mode, or null text when it did not exist. */
export interface PreviousFile {
  readonly text: string | null;
  readonly mode: number;
  readonly binary: boolean;
}

/** Reads a file about to be replaced; a missing file is `text: null`. A directory throws EISDIR. */
export async function readPrevious(path: string): Promise<PreviousFile> {
  let bytes: Buffer;
  let mode: number;
  try {
    const stats = await stat(path);
    if (stats.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    mode = stats.mode & 0o7777;
    bytes = await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { text: null, mode: NEW_FILE_MODE, binary: false };
    throw error;
  }
  return { text: bytes.toString('utf8'), mode, binary: looksBinary(bytes) };
}

/**
 * Replaces the file's content all at once (a reader never sees half of it), keeping its mode; missing parent
 * directories are created (with the umask's usual modes).
 */
export async function replaceFile(path: string, text: string, mode: number): Promise<void> {
  await writeFileAtomic(path, text, { fileMode: mode, directoryMode: 0o777 });
}
