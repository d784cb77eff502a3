import { randomBytes } from 'node:crypto';
import { link, mkdir, open, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { SessionEntry, SessionHeader } from '@pi/agent-contract';
import { syncDirectory } from './session-file';

export interface ForkContent {
  readonly header: SessionHeader;
  readonly entries: readonly SessionEntry[];
}

/**
 * Writes a forked session's file all at once and never over an existing file: the lines go to a temporary file
 * (0600, synced), which is then hard-linked to the target (failing if it exists) and removed. A crash leaves at
 * worst a stray temporary file, never a half-written session that a restore would cut back as a torn line.
 */
export async function writeForkFile(file: string, content: ForkContent): Promise<void> {
  const directory = dirname(file);
  await mkdir(directory, { recursive: true, mode: 0o700 });
  const temporary = join(directory, `.${basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const lines = [content.header, ...content.entries].map((line) => `${JSON.stringify(line)}\n`).join('');
  try {
    const handle = await open(temporary, 'wx', 0o600);
    try {
      await handle.chmod(0o600);
      await handle.writeFile(lines, 'utf8');
      await handle.datasync();
    } finally {
      await handle.close();
    }
    await link(temporary, file);
  } finally {
    await rm(temporary, { force: true });
  }
  await syncDirectory(directory);
}
