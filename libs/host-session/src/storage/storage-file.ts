import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { serialQueue, writeFileAtomic } from '@pi/atomic-file';
import type { JsonValue } from '@pi/json';

/** One stored value or list, as it is written beside the session file. */
export interface StoredEntry {
  readonly plugin: string;
  readonly namespace: string;
  readonly key: string;
}
export type StoredValueEntry = StoredEntry & { readonly value: JsonValue };
export type StoredListEntry = StoredEntry & { readonly items: readonly JsonValue[] };

export interface StoredContents {
  readonly values: readonly StoredValueEntry[];
  readonly lists: readonly StoredListEntry[];
}

/** Where a session's bound storage lives: beside its session file, replaced whole on every change. */
export function storageFile(sessionFile: string): string {
  return `${sessionFile}.storage.json`;
}

const address = { plugin: z.string().min(1), namespace: z.string().min(1), key: z.string() };
const fileSchema = z.object({
  values: z.array(z.object({ ...address, value: z.json() })),
  lists: z.array(z.object({ ...address, items: z.array(z.json()) })),
});

const EMPTY: StoredContents = { values: [], lists: [] };

/** What an earlier process of the session stored; nothing when there is no file. A file that is not ours is a problem. */
export async function readStorageFile(file: string): Promise<{ contents: StoredContents; problem: string | null }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { contents: EMPTY, problem: null };
    return { contents: EMPTY, problem: `cannot read ${file}: ${(error as Error).message}` };
  }
  try {
    const parsed = fileSchema.safeParse(JSON.parse(text));
    if (parsed.success) return { contents: parsed.data as StoredContents, problem: null };
  } catch {
    // Not JSON: reported below like any other malformed file.
  }
  return { contents: EMPTY, problem: `${file} is not a session storage file; its values and lists were not restored` };
}

/**
 * Writes the storage, the newest contents last: writes run one at a time and one overtaken by a newer one is
 * skipped. `flushed` resolves once what was asked so far is on disk.
 */
export function storageWriter(file: string, onFailure: (message: string) => void) {
  const queue = serialQueue();
  let latest: (() => StoredContents) | undefined;
  let last: Promise<void> = Promise.resolve();
  return {
    /** `contents` is read when the write runs, so a burst of changes costs one write. */
    write(contents: () => StoredContents): void {
      latest = contents;
      last = queue(async () => {
        if (latest === undefined) return;
        const text = `${JSON.stringify(latest())}\n`;
        latest = undefined;
        await writeFileAtomic(file, text, { fileMode: 0o600 });
      }).catch((error: unknown) => onFailure(`cannot write ${file}: ${(error as Error).message}`));
    },
    flushed: (): Promise<void> => last,
  };
}
