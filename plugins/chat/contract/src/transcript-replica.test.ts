import { describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { RemoteError, createRemoteEvents, createRemoteState, type ConnectionState } from '@pi/remote';
import type { ChatEvent } from './chat-events';
import type { TranscriptEntry } from './transcript';
import { TranscriptReplica, type TranscriptSource } from './transcript-replica';
import {
  MAX_HISTORY_LIMIT,
  TRANSCRIPT_WINDOW,
  type HistoryRequest,
  type TranscriptHead,
  type TranscriptPage,
} from './transcript-window';

const entry = (id: string): TranscriptEntry => ({ kind: 'user', id, operationId: null, text: id });
const ids = (entries: readonly TranscriptEntry[]) => entries.map((item) => item.id);
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, index) => `e${from + index}`);
const settle = () => new Promise((resolve) => setImmediate(resolve));

/**
 * The providing side in memory, with the session's rules: `appended` and the head on every entry, `recent` only
 * when told to checkpoint. History answers can be held back and released, or made to fail.
 */
class FakeChat implements TranscriptSource {
  branch = 'b1';
  log: TranscriptEntry[];
  readonly recent: ReturnType<typeof createRemoteState<TranscriptPage>>;
  readonly transcript: ReturnType<typeof createRemoteState<TranscriptHead>>;
  readonly events = createRemoteEvents<ChatEvent>();
  readonly calls: HistoryRequest[] = [];
  hold = false;
  failing: RemoteError | null = null;
  readonly #held: Array<() => void> = [];

  constructor(count: number) {
    this.log = range(0, count).map(entry);
    this.recent = createRemoteState(this.window());
    this.transcript = createRemoteState(this.head());
  }

  head(): TranscriptHead {
    return { branch: this.branch, total: this.log.length, running: null };
  }

  window(): TranscriptPage {
    return this.page(this.log.length, TRANSCRIPT_WINDOW);
  }

  page(before: number, limit: number): TranscriptPage {
    const end = Math.min(before, this.log.length);
    const first = Math.max(0, end - limit);
    return { branch: this.branch, firstIndex: first, entries: this.log.slice(first, end) };
  }

  /** Appends entries; `heard: false` loses their events on the way, as a dropped connection would. */
  append(count: number, options: { heard?: boolean; checkpoint?: boolean } = {}): void {
    for (let made = 0; made < count; made += 1) {
      const index = this.log.length;
      const appended = entry(`e${index}`);
      this.log.push(appended);
      if (options.heard !== false)
        this.events.emit({ type: 'appended', branch: this.branch, index, entry: appended }, BACKGROUND_CONTEXT);
    }
    if (options.checkpoint === true) this.recent.set(this.window(), BACKGROUND_CONTEXT);
    this.transcript.set(this.head(), BACKGROUND_CONTEXT);
  }

  replace(branch: string, count: number): void {
    this.branch = branch;
    this.log = range(0, count).map((id) => entry(`${branch}-${id}`));
    this.recent.set(this.window(), BACKGROUND_CONTEXT);
    this.transcript.set(this.head(), BACKGROUND_CONTEXT);
  }

  history(request: HistoryRequest): Promise<TranscriptPage> {
    this.calls.push(request);
    if (this.failing !== null) return Promise.reject(this.failing);
    const answer = this.page(request.before, request.limit);
    if (!this.hold) return Promise.resolve(answer);
    return new Promise((resolve) => this.#held.push(() => resolve(answer)));
  }

  release(): void {
    this.hold = false;
    for (const answer of this.#held.splice(0)) answer();
  }
}

describe('transcript replica', () => {
  it('hydrates from a stale recent checkpoint and fetches the entries after it with history', async () => {
    const chat = new FakeChat(130);
    chat.append(7);
    const replica = new TranscriptReplica(chat);
    expect(replica.firstIndex).toBe(30);
    expect(replica.synced).toBe(false);
    expect(chat.calls).toEqual([{ before: 137, limit: 7 }]);
    await settle();
    expect(replica.synced).toBe(true);
    expect(ids(replica.entries)).toEqual(range(30, 137));
    expect(replica.total).toBe(137);
  });

  it('holds an appended entry that arrives ahead of a gap until history fills the gap, then applies both in order', async () => {
    const chat = new FakeChat(10);
    chat.append(2, { heard: false });
    chat.hold = true;
    const replica = new TranscriptReplica(chat);
    chat.append(1);
    expect(ids(replica.entries)).toEqual(range(0, 10));
    chat.release();
    await settle();
    expect(ids(replica.entries)).toEqual(range(0, 13));
    expect(chat.calls).toEqual([{ before: 12, limit: 2 }]);
  });

  it('applies appended entries as they come without asking for anything', () => {
    const chat = new FakeChat(3);
    const replica = new TranscriptReplica(chat);
    const seen: number[] = [];
    replica.subscribe(() => seen.push(replica.entries.length));
    chat.append(2);
    expect(ids(replica.entries)).toEqual(range(0, 5));
    expect(replica.complete).toBe(true);
    expect(chat.calls).toEqual([]);
    expect(seen.at(-1)).toBe(5);
  });

  it('loadOlder pages back to the first entry, and the replica is then complete', async () => {
    const chat = new FakeChat(450);
    const replica = new TranscriptReplica(chat);
    expect(replica.firstIndex).toBe(350);
    expect(replica.complete).toBe(false);
    while (replica.firstIndex > 0) await replica.loadOlder(MAX_HISTORY_LIMIT + 50);
    expect(replica.complete).toBe(true);
    expect(ids(replica.entries)).toEqual(range(0, 450));
    expect(chat.calls.map((call) => call.limit)).toEqual([MAX_HISTORY_LIMIT, MAX_HISTORY_LIMIT]);
    await replica.loadOlder();
    expect(chat.calls).toHaveLength(2);
  });

  it('concurrent loadOlder calls share one request', async () => {
    const chat = new FakeChat(300);
    const replica = new TranscriptReplica(chat);
    await Promise.all([replica.loadOlder(50), replica.loadOlder(50)]);
    expect(chat.calls).toEqual([{ before: 200, limit: 50 }]);
    expect(replica.firstIndex).toBe(150);
  });

  it('a replaced branch drops what was held and starts again from the new recent window', async () => {
    const chat = new FakeChat(20);
    const replica = new TranscriptReplica(chat);
    chat.replace('b2', 5);
    expect(replica.branch).toBe('b2');
    expect(ids(replica.entries)).toEqual(range(0, 5).map((id) => `b2-${id}`));
    expect(replica.complete).toBe(true);
    chat.append(1);
    expect(ids(replica.entries).at(-1)).toBe('e5');
  });

  it('drops a history page that answers after the branch was replaced', async () => {
    const chat = new FakeChat(130);
    chat.append(3);
    chat.hold = true;
    const replica = new TranscriptReplica(chat);
    chat.replace('b2', 4);
    chat.release();
    await settle();
    expect(ids(replica.entries)).toEqual(range(0, 4).map((id) => `b2-${id}`));
    expect(replica.synced).toBe(true);
  });

  it('after missing more than MAX_HISTORY_LIMIT entries, starts again from the newest window', async () => {
    const chat = new FakeChat(10);
    const replica = new TranscriptReplica(chat);
    chat.append(MAX_HISTORY_LIMIT + 40, { heard: false });
    await settle();
    expect(chat.calls).toEqual([{ before: 250, limit: TRANSCRIPT_WINDOW }]);
    expect(replica.firstIndex).toBe(150);
    expect(ids(replica.entries)).toEqual(range(150, 250));
    expect(replica.synced).toBe(true);
  });

  it('after missing entries across a checkpoint, pages forward to it when that is one page', async () => {
    const chat = new FakeChat(10);
    const replica = new TranscriptReplica(chat);
    chat.append(290, { heard: false, checkpoint: true });
    await settle();
    expect(chat.calls).toEqual([{ before: 200, limit: 190 }]);
    expect(ids(replica.entries)).toEqual(range(0, 300));
  });

  it('after missing more than a page before a checkpoint, continues from the checkpoint and fills the rest', async () => {
    const chat = new FakeChat(10);
    const replica = new TranscriptReplica(chat);
    chat.append(390, { heard: false, checkpoint: true });
    chat.append(5, { heard: false });
    await settle();
    expect(chat.calls).toEqual([{ before: 405, limit: 5 }]);
    expect(ids(replica.entries)).toEqual(range(300, 405));
  });

  it('a failed fill is reported and tried again once the connection is back', async () => {
    const chat = new FakeChat(120);
    chat.append(4, { heard: false });
    chat.failing = new RemoteError('disconnected', 'The connection dropped');
    const connection = createRemoteState<ConnectionState>({ status: 'connected', epoch: 1 });
    const replica = new TranscriptReplica(chat, { connection });
    await settle();
    expect(replica.error?.code).toBe('disconnected');
    expect(replica.synced).toBe(false);

    chat.failing = null;
    connection.set({ status: 'connecting', attempt: 1 }, BACKGROUND_CONTEXT);
    connection.set({ status: 'connected', epoch: 2 }, BACKGROUND_CONTEXT);
    await settle();
    expect(replica.error).toBeNull();
    expect(ids(replica.entries)).toEqual(range(20, 124));
  });

  it('a disposed replica stops listening; each subscription removes exactly itself', () => {
    const chat = new FakeChat(3);
    const replica = new TranscriptReplica(chat);
    const heard: number[] = [];
    const listener = () => heard.push(replica.total);
    const first = replica.subscribe(listener);
    replica.subscribe(listener);
    chat.append(1);
    const bothHeard = heard.splice(0);
    first();
    chat.append(1);
    expect(heard).toHaveLength(bothHeard.length / 2);
    expect(heard.at(-1)).toBe(5);
    replica.dispose();
    chat.append(1);
    expect(replica.total).toBe(5);
    expect(heard.at(-1)).toBe(5);
  });
});
