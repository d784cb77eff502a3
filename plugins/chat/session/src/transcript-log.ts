import { randomBytes } from 'node:crypto';
import type { SessionEntry, SessionTree } from '@pi/agent';
import {
  TRANSCRIPT_CHECKPOINT_EVERY,
  TRANSCRIPT_PAGE_CHARS,
  TRANSCRIPT_WINDOW,
  type TranscriptEntry,
  type TranscriptHead,
  type TranscriptPage,
} from '@pi/chat';
import { projectTranscript, runningAfter, toTranscriptEntry } from './transcript-projection';

/** What one durable entry did to the transcript. */
export type TranscriptChange =
  /** Not a transcript entry (a plugin's custom record). */
  | { readonly kind: 'none' }
  /** New entries at the end of the same branch; `checkpoint` when `recent` is due. */
  | {
      readonly kind: 'appended';
      readonly appended: ReadonlyArray<{ readonly index: number; readonly entry: TranscriptEntry }>;
      readonly checkpoint: boolean;
    }
  /** The branch is another sequence now, with a new branch id. */
  | { readonly kind: 'replaced' };

/** Eight characters of randomness: a restarted process or a replaced branch never reuses a client's id. */
export function randomBranchId(): string {
  return randomBytes(6).toString('base64url');
}

/**
 * The transcript of the current branch, kept incrementally: an entry whose parent is the leaf this log last saw is
 * appended in O(1); anything else re-reads the branch (appends if it still starts with what the log holds, a new
 * branch otherwise). Pages are cut by count and by characters of JSON, newest last.
 */
export class TranscriptLog {
  readonly #newBranchId: () => string;
  #branch: string;
  #entries: TranscriptEntry[] = [];
  /** The JSON length of each entry, measured once, for the page budget. */
  #sizes: number[] = [];
  #running: string | null = null;
  #leafId: string | null;

  constructor(tree: Pick<SessionTree, 'branch' | 'leafId'>, newBranchId: () => string = randomBranchId) {
    this.#newBranchId = newBranchId;
    this.#branch = newBranchId();
    this.#leafId = tree.leafId;
    this.#reset(projectTranscript(tree.branch()).entries);
  }

  get branch(): string {
    return this.#branch;
  }

  get total(): number {
    return this.#entries.length;
  }

  head(): TranscriptHead {
    return { branch: this.#branch, total: this.#entries.length, running: this.#running };
  }

  /** The `recent` checkpoint: the newest TRANSCRIPT_WINDOW entries (fewer past the character budget). */
  window(): TranscriptPage {
    return this.page(this.#entries.length, TRANSCRIPT_WINDOW);
  }

  /** Up to `limit` entries before `before`, stopping before TRANSCRIPT_PAGE_CHARS but keeping at least one. */
  page(before: number, limit: number): TranscriptPage {
    const end = Math.min(before, this.#entries.length);
    let start = end;
    let chars = 0;
    while (start > 0 && end - start < limit) {
      const size = this.#sizes[start - 1] ?? 0;
      if (start < end && chars + size > TRANSCRIPT_PAGE_CHARS) break;
      chars += size;
      start -= 1;
    }
    return { branch: this.#branch, firstIndex: start, entries: this.#entries.slice(start, end) };
  }

  /** The tree's leaf became `entry`. */
  advance(entry: SessionEntry, tree: Pick<SessionTree, 'branch' | 'leafId'>): TranscriptChange {
    if (entry.parentId === this.#leafId) {
      this.#leafId = entry.id;
      const projected = toTranscriptEntry(entry);
      return projected === null ? { kind: 'none' } : this.#appended([projected]);
    }
    this.#leafId = tree.leafId;
    const { entries } = projectTranscript(tree.branch());
    const held = this.#entries.length;
    if (entries.length >= held && entries.slice(0, held).every((item, index) => item.id === this.#entries[index]?.id))
      return entries.length === held ? { kind: 'none' } : this.#appended(entries.slice(held));
    this.#branch = this.#newBranchId();
    this.#reset(entries);
    return { kind: 'replaced' };
  }

  #appended(entries: readonly TranscriptEntry[]): TranscriptChange {
    const before = this.#entries.length;
    const appended = entries.map((entry) => ({ index: this.#push(entry), entry }));
    const checkpoint =
      Math.floor(this.#entries.length / TRANSCRIPT_CHECKPOINT_EVERY) > Math.floor(before / TRANSCRIPT_CHECKPOINT_EVERY);
    return { kind: 'appended', appended, checkpoint };
  }

  #push(entry: TranscriptEntry): number {
    this.#entries.push(entry);
    this.#sizes.push(JSON.stringify(entry).length);
    this.#running = runningAfter(this.#running, entry);
    return this.#entries.length - 1;
  }

  #reset(entries: readonly TranscriptEntry[]): void {
    this.#entries = [];
    this.#sizes = [];
    this.#running = null;
    for (const entry of entries) this.#push(entry);
  }
}
