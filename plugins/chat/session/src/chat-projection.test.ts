import { beforeEach, describe, expect, it } from 'vitest';
import type { HarnessEvent, SessionEntry, SessionTree } from '@pi/agent';
import {
  TRANSCRIPT_CHECKPOINT_EVERY,
  type ChatEvent,
  type StreamingCheckpoint,
  type TranscriptHead,
  type TranscriptPage,
} from '@pi/chat';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { createRemoteEvents, createRemoteState } from '@pi/remote';
import { chatProjection } from './chat-projection';
import { StreamSegments } from './stream-segments';
import { TranscriptLog } from './transcript-log';

/** The projection's writes in the order it made them, as one client stream would carry them. */
function recordedProjection() {
  const branch: SessionEntry[] = [];
  const tree = {
    branch: () => branch,
    get leafId() {
      return branch.at(-1)?.id ?? null;
    },
  } satisfies Pick<SessionTree, 'branch' | 'leafId'>;
  let branches = 0;
  const log = new TranscriptLog(tree, () => `b${(branches += 1)}`);
  const recent = createRemoteState<TranscriptPage>(log.window());
  const transcript = createRemoteState<TranscriptHead>(log.head());
  const streaming = createRemoteState<StreamingCheckpoint | null>(null);
  const events = createRemoteEvents<ChatEvent>();
  const writes: string[] = [];
  recent.observe((change) => writes.push(`recent:${change.value.firstIndex}+${change.value.entries.length}`));
  transcript.observe((change) => writes.push(`transcript:${change.value.total}`));
  streaming.observe((change) => writes.push(`streaming:${change.value === null ? 'null' : change.value.text}`));
  const emitted: ChatEvent[] = [];
  events.observe(({ event }) => {
    emitted.push(event);
    writes.push(event.type === 'appended' ? `appended:${event.index}` : `event:${event.type}`);
  });
  const project = chatProjection(tree, log, { recent, transcript, streaming, events }, new StreamSegments(2));
  const append = (entry: SessionEntry) => {
    branch.push(entry);
    project(
      { type: 'entry_appended', operationId: 'operationId' in entry ? entry.operationId : null, entry },
      BACKGROUND_CONTEXT,
    );
  };
  const emit = (event: HarnessEvent) => project(event, BACKGROUND_CONTEXT);
  return { writes, append, emit, transcript, recent, branch, events: emitted };
}

/** Lets the projection's end of tick pass (it flushes held deltas with process.nextTick). */
const endOfTick = () => new Promise((resolve) => setImmediate(resolve));

const at = { parentId: null, timestamp: '2025-01-01T00:00:00.000Z' };
let last: string | null = null;
/** Entries in a chain: each one's parent is the one made before it (the tests' branch never forks). */
const chained = <T extends object>(id: string, body: T) => {
  const entry = { id, parentId: last, timestamp: at.timestamp, ...body };
  last = id;
  return entry as unknown as SessionEntry;
};
const assistant = (id: string, text: string): SessionEntry =>
  chained(id, {
    kind: 'message',
    operationId: 'op',
    message: { role: 'assistant', content: [{ type: 'text', text }], model: 'm/x', stopReason: 'stop' },
  });
const user = (id: string): SessionEntry =>
  chained(id, { kind: 'message', operationId: null, message: { role: 'user', content: [{ type: 'text', text: id }] } });

describe('chat projection', () => {
  beforeEach(() => {
    last = null;
  });

  it('emits each delta before the checkpoint that covers it, and the final before the appended entry, the head and the cleared cell', async () => {
    const { writes, append, emit } = recordedProjection();
    for (const delta of ['a', 'b', 'c']) {
      emit({ type: 'text_delta', operationId: 'op', delta });
      await endOfTick();
    }
    append(assistant('e1', 'abc'));
    emit({ type: 'run_settled', operationId: 'op', outcome: { outcome: 'completed', error: null } });
    expect(writes).toEqual([
      'event:delta',
      'streaming:a',
      'event:delta',
      'event:delta',
      'streaming:abc',
      'event:final',
      'appended:0',
      'transcript:1',
      'streaming:null',
      'event:settled',
    ]);
  });

  it('emits the deltas of one tick as one delta at the end of the tick, then its checkpoint', async () => {
    const { writes, emit, events } = recordedProjection();
    for (const delta of ['a', 'b', 'c']) emit({ type: 'text_delta', operationId: 'op', delta });
    expect(writes).toEqual([]);
    await endOfTick();
    for (const delta of ['d', 'e']) emit({ type: 'text_delta', operationId: 'op', delta });
    await endOfTick();
    for (const delta of ['f', 'g']) emit({ type: 'text_delta', operationId: 'op', delta });
    await endOfTick();
    expect(writes).toEqual(['event:delta', 'streaming:abc', 'event:delta', 'event:delta', 'streaming:abcdefg']);
    expect(events.filter((event) => event.type === 'delta')).toEqual([
      { type: 'delta', operationId: 'op', segment: 0, offset: 0, text: 'abc' },
      { type: 'delta', operationId: 'op', segment: 0, offset: 3, text: 'de' },
      { type: 'delta', operationId: 'op', segment: 0, offset: 5, text: 'fg' },
    ]);
  });

  it('sends held text before anything the next harness event writes, in the same tick', () => {
    const { writes, append, emit } = recordedProjection();
    for (const delta of ['a', 'b']) emit({ type: 'text_delta', operationId: 'op', delta });
    append(assistant('e1', 'ab'));
    emit({ type: 'text_delta', operationId: 'op', delta: 'x' });
    emit({ type: 'run_settled', operationId: 'op', outcome: { outcome: 'aborted', error: null } });
    expect(writes).toEqual([
      'event:delta',
      'streaming:ab',
      'event:final',
      'appended:0',
      'transcript:1',
      'streaming:null',
      'event:delta',
      'streaming:x',
      'event:settled',
      'streaming:null',
    ]);
  });

  it('contains a throw while sending held text at the end of the tick, as the harness contains a listener’s', async () => {
    const { transcript, recent } = recordedProjection();
    const failing = createRemoteEvents<ChatEvent>();
    failing.emit = () => {
      throw new Error('the stream is gone');
    };
    const streams = {
      recent,
      transcript,
      streaming: createRemoteState<StreamingCheckpoint | null>(null),
      events: failing,
    };
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    try {
      const project = chatProjection(
        { branch: () => [], leafId: null },
        new TranscriptLog({ branch: () => [], leafId: null }),
        streams,
      );
      project({ type: 'text_delta', operationId: 'op', delta: 'x' }, BACKGROUND_CONTEXT);
      await endOfTick();
      await endOfTick();
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).toEqual(['Sending streamed text failed: the stream is gone']);
  });

  it('writes the transcript for durable entries only, not for deltas or tool starts', () => {
    const { writes, append, emit } = recordedProjection();
    append(chained('e0', { kind: 'operation_started', operationId: 'op' }));
    emit({ type: 'run_started', operationId: 'op' });
    emit({ type: 'text_delta', operationId: 'op', delta: 'x' });
    emit({ type: 'tool_started', operationId: 'op', toolCallId: 'c', toolName: 't', arguments: {} });
    expect(writes.filter((write) => write.startsWith('transcript'))).toEqual(['transcript:1']);
  });

  it('sends one appended event and the head per entry, and the recent window only every TRANSCRIPT_CHECKPOINT_EVERY entries', () => {
    const { writes, append, recent } = recordedProjection();
    for (let index = 0; index < 2 * TRANSCRIPT_CHECKPOINT_EVERY + 1; index += 1) append(user(`u${index}`));
    expect(writes.filter((write) => write.startsWith('recent'))).toEqual([
      `recent:0+${TRANSCRIPT_CHECKPOINT_EVERY}`,
      `recent:0+${2 * TRANSCRIPT_CHECKPOINT_EVERY}`,
    ]);
    expect(writes.slice(-2)).toEqual([
      `appended:${2 * TRANSCRIPT_CHECKPOINT_EVERY}`,
      `transcript:${2 * TRANSCRIPT_CHECKPOINT_EVERY + 1}`,
    ]);
    expect(writes.slice(-5, -2)).toEqual([
      `appended:${2 * TRANSCRIPT_CHECKPOINT_EVERY - 1}`,
      `recent:0+${2 * TRANSCRIPT_CHECKPOINT_EVERY}`,
      `transcript:${2 * TRANSCRIPT_CHECKPOINT_EVERY}`,
    ]);
    expect(recent.value.entries.map((entry) => entry.id).at(-1)).toBe(`u${2 * TRANSCRIPT_CHECKPOINT_EVERY - 1}`);
  });

  it('leaves custom entries out: no event, no head change', () => {
    const { writes, append } = recordedProjection();
    append(chained('c0', { kind: 'custom', namespace: '@pi/other', data: { secret: true } }));
    append(user('u1'));
    expect(writes).toEqual(['appended:0', 'transcript:1']);
  });

  it('an entry that is not a child of the last leaf re-reads the branch and, when it is another sequence, names a new branch', () => {
    const { writes, append, branch, transcript, recent } = recordedProjection();
    append(user('u0'));
    append(user('u1'));
    writes.length = 0;
    // Another leaf: a fork from before u0, as navigation would make.
    branch.splice(0, branch.length);
    last = null;
    append(user('v0'));
    expect(writes).toEqual(['recent:0+1', 'transcript:1']);
    expect(transcript.value.branch).not.toBe('b1');
    expect(recent.value).toEqual({
      branch: transcript.value.branch,
      firstIndex: 0,
      entries: [expect.objectContaining({ id: 'v0' })],
    });
  });
});
