import { randomBytes } from 'node:crypto';
import { link, mkdir, open, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { SessionEntry, SessionHeader } from '@pi/agent-contract';
import { syncDirectory } from './session-file-restore';

/**
 * The entries a fork holds, from the branch root first: each the child of the one before (leaf moves are already
 * gone from a node path). A fork copies history, not what was waiting to be sent: an item queued on the path and
 * not delivered (or withdrawn) on it is left out, so it cannot run in both sessions. A follow-up queued during the
 * run a fork ends with is delivered after that run's end, outside the fork.
 */
export function forkEntries(path: readonly SessionEntry[]): SessionEntry[] {
  const done = new Set<string>();
  for (const entry of path) {
    if (entry.kind === 'queue_withdrawn') done.add(entry.itemId);
    if (entry.kind === 'message' && entry.queueItemId !== undefined) done.add(entry.queueItemId);
  }
  const kept = path.filter((entry) => entry.kind !== 'queue_added' || done.has(entry.itemId));
  return kept.map((entry, index) => ({ ...entry, parentId: kept[index - 1]?.id ?? null }));
}

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
