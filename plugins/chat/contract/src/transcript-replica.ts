import { BACKGROUND_CONTEXT, type Context } from '@pi/context';
import { runListener, toRemoteError, type ConnectionState, type RemoteError, type RemoteState } from '@pi/remote';
import type { ChatEvent } from './chat-events';
import type { ChatService } from './chat-service';
import type { TranscriptEntry } from './transcript';
import { MAX_HISTORY_LIMIT, TRANSCRIPT_WINDOW, type HistoryRequest, type TranscriptPage } from './transcript-window';

/** What the replica reads: a Chat proxy (or the providing side's service, which has the same members). */
export type TranscriptSource = Pick<ChatService, 'recent' | 'transcript' | 'events' | 'history'>;

export interface TranscriptReplicaOptions {
  /** The context of the replica's own `history` calls (gap filling); BACKGROUND_CONTEXT by default. */
  readonly context?: Context;
  /** The client's connection: once it is connected again, a gap whose filling failed is filled again. */
  readonly connection?: RemoteState<ConnectionState>;
}

type Appended = Extract<ChatEvent, { type: 'appended' }>;

/**
 * A client's copy of the newest part of the transcript, kept exactly equal to the session's branch: entries
 * `firstIndex … total - 1`, by id and order (see the late-join rule on ChatService). It hydrates from `recent`,
 * applies `appended` events by index, and fills any gap (entries since the checkpoint, events missed while
 * disconnected) with `history`; a gap wider than MAX_HISTORY_LIMIT is skipped by starting again from the newest
 * window, older entries being `loadOlder`'s to fetch. It does no I/O of its own: every call goes through `source`.
 *
 * Create it in the same turn the proxy was hydrated (`use()` resolved) so it hears every event; created later it
 * still converges, through one more `history` call.
 */
export class TranscriptReplica {
  readonly #source: TranscriptSource;
  readonly #context: Context;
  readonly #listeners = new Set<() => void>();
  readonly #stops: Array<() => void> = [];
  #branch = '';
  #firstIndex = 0;
  #entries: TranscriptEntry[] = [];
  /** Entries that arrived ahead of a gap, by index; all beyond the held range. */
  readonly #pending = new Map<number, TranscriptEntry>();
  #total = 0;
  #running: string | null = null;
  /** Bumped whenever the held range restarts: answers to requests made before are dropped. */
  #generation = 0;
  #filling = false;
  #older: { readonly generation: number; readonly done: Promise<void> } | undefined;
  #error: RemoteError | null = null;
  #disposed = false;

  constructor(source: TranscriptSource, options: TranscriptReplicaOptions = {}) {
    this.#source = source;
    this.#context = options.context ?? BACKGROUND_CONTEXT;
    this.#stops.push(
      source.recent.subscribe((page) => this.#onRecent(page)),
      source.transcript.subscribe((head) => this.#onHead(head.branch, head.total, head.running)),
      source.events.on('appended', (event) => this.#onAppended(event)),
    );
    if (options.connection !== undefined) {
      this.#stops.push(
        options.connection.subscribe((state) => {
          if (state.status === 'connected') this.#fill();
        }),
      );
    }
  }

  /** The held entries, oldest first; `entries[i]` is at index `firstIndex + i`. Read it anew after each change. */
  get entries(): readonly TranscriptEntry[] {
    return this.#entries;
  }

  get firstIndex(): number {
    return this.#firstIndex;
  }

  /** How many entries the branch has, as far as this client has heard. */
  get total(): number {
    return this.#total;
  }

  get branch(): string {
    return this.#branch;
  }

  get running(): string | null {
    return this.#running;
  }

  /** Every entry from `firstIndex` to the newest one is held (no gap being filled). */
  get synced(): boolean {
    return this.#end === this.#total;
  }

  /** The whole branch is held, from its first entry. */
  get complete(): boolean {
    return this.synced && this.#firstIndex === 0;
  }

  /** Why the last gap filling failed; null once one succeeds. */
  get error(): RemoteError | null {
    return this.#error;
  }

  /** Called after every change of what the replica holds or knows; returns the disposer. */
  subscribe(listener: () => void): () => void {
    const entry = () => listener();
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  }

  /**
   * Fetches up to `limit` entries before `firstIndex` (for a reader scrolling up). Concurrent calls share one
   * request; a page that no longer adjoins what is held (the branch was replaced meanwhile) is dropped.
   */
  loadOlder(limit: number = TRANSCRIPT_WINDOW, context: Context = this.#context): Promise<void> {
    if (this.#firstIndex === 0 || this.#disposed) return Promise.resolve();
    const generation = this.#generation;
    if (this.#older?.generation === generation) return this.#older.done;
    const at = this.#firstIndex;
    const request = { before: at, limit: Math.max(1, Math.min(Math.floor(limit), MAX_HISTORY_LIMIT)) };
    const done = this.#source
      .history(request, context)
      .then((page) => {
        if (generation !== this.#generation || page.branch !== this.#branch) return;
        if (page.firstIndex + page.entries.length !== at) return;
        this.#entries = [...page.entries, ...this.#entries];
        this.#firstIndex = page.firstIndex;
        this.#notify();
      })
      .finally(() => {
        if (this.#older?.done === done) this.#older = undefined;
      });
    this.#older = { generation, done };
    return done;
  }

  /** Stops listening; requests in flight are ignored when they answer. */
  dispose(): void {
    this.#disposed = true;
    this.#generation += 1;
    for (const stop of this.#stops.splice(0)) stop();
    this.#listeners.clear();
  }

  get #end(): number {
    return this.#firstIndex + this.#entries.length;
  }

  #onRecent(page: TranscriptPage): void {
    if (page.branch !== this.#branch) this.#switchTo(page.branch, page);
    else this.#merge(page);
    this.#fill();
    this.#notify();
  }

  #onHead(branch: string, total: number, running: string | null): void {
    if (branch !== this.#branch) {
      // The snapshot may have installed the new `recent` already; otherwise it follows and the fill adjusts.
      const recent = this.#source.recent.value;
      this.#switchTo(branch, recent.branch === branch ? recent : null);
    }
    this.#total = Math.max(this.#total, total);
    this.#running = running;
    this.#fill();
    this.#notify();
  }

  #onAppended(event: Appended): void {
    // Another branch's entry cannot follow that branch's own announcement in one ordered watch: not ours to hold.
    if (event.branch !== this.#branch) return;
    this.#put(event.index, event.entry);
    this.#total = Math.max(this.#total, event.index + 1);
    this.#fill();
    this.#notify();
  }

  /** A new branch: everything held is another sequence's. Starts from `seed` when it is of this branch. */
  #switchTo(branch: string, seed: TranscriptPage | null): void {
    this.#branch = branch;
    this.#pending.clear();
    this.#total = 0;
    this.#restartAt(seed?.firstIndex ?? 0);
    if (seed !== null) this.#merge(seed);
  }

  /** Drops the held range and starts an empty one at `index`, keeping what is pending beyond it. */
  #restartAt(index: number): void {
    this.#generation += 1;
    this.#filling = false;
    this.#firstIndex = index;
    this.#entries = [];
    for (const pending of [...this.#pending.keys()]) if (pending < index) this.#pending.delete(pending);
    this.#drain();
  }

  #merge(page: TranscriptPage): void {
    page.entries.forEach((entry, offset) => this.#put(page.firstIndex + offset, entry));
    this.#total = Math.max(this.#total, page.firstIndex + page.entries.length);
  }

  /** An entry at its index: extends the held range, waits beyond a gap, or is already held. */
  #put(index: number, entry: TranscriptEntry): void {
    const end = this.#end;
    if (index < end) return;
    if (index > end) {
      this.#pending.set(index, entry);
      return;
    }
    this.#entries.push(entry);
    this.#drain();
  }

  #drain(): void {
    for (let next = this.#pending.get(this.#end); next !== undefined; next = this.#pending.get(this.#end)) {
      this.#pending.delete(this.#end);
      this.#entries.push(next);
    }
  }

  /** Asks `history` for the first missing entries, one request at a time, until nothing is missing. */
  #fill(): void {
    if (this.#filling || this.#disposed) return;
    const end = this.#end;
    if (end >= this.#total) return;
    let before = this.#total;
    for (const index of this.#pending.keys()) before = Math.min(before, index);
    let request: HistoryRequest;
    let jump = false;
    if (before - end <= MAX_HISTORY_LIMIT) {
      request = { before, limit: before - end };
    } else if (this.#pending.size > 0) {
      // Too far behind to page forward: continue from what already arrived beyond the gap.
      this.#restartAt(before);
      this.#fill();
      return;
    } else {
      request = { before: this.#total, limit: TRANSCRIPT_WINDOW };
      jump = true;
    }
    this.#filling = true;
    const generation = this.#generation;
    this.#source.history(request, this.#context).then(
      (page) => {
        if (generation !== this.#generation) return;
        this.#filling = false;
        this.#error = null;
        // A page of another branch: the head announcing that branch is on its way, and the fill follows it.
        if (page.branch === this.#branch) {
          if (jump) this.#restartAt(page.firstIndex);
          this.#merge(page);
          this.#fill();
        }
        this.#notify();
      },
      (error: unknown) => {
        if (generation !== this.#generation) return;
        this.#filling = false;
        this.#error = toRemoteError(error);
        this.#notify();
      },
    );
  }

  /** Listeners are isolated: one that throws is reported, as the remote layer reports its listeners, and the rest run. */
  #notify(): void {
    for (const listener of [...this.#listeners]) runListener(listener, 'A transcript replica listener threw');
  }
}
