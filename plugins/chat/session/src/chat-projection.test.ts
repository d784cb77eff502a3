import { describe, expect, it } from 'vitest';
import type { HarnessEvent, SessionEntry, SessionTree } from '@pi/agent';
import type { ChatEvent, ChatTranscript, StreamingCheckpoint } from '@pi/chat';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { createRemoteEvents, createRemoteState } from '@pi/remote';
import { chatProjection } from './chat-projection';
import { StreamSegments } from './stream-segments';

/** The projection's writes in the order it made them, as one client stream would carry them. */
function recordedProjection() {
  const branch: SessionEntry[] = [];
  const tree = { branch: () => branch } as unknown as SessionTree;
  const transcript = createRemoteState<ChatTranscript>({ entries: [], running: null });
  const streaming = createRemoteState<StreamingCheckpoint | null>(null);
  const events = createRemoteEvents<ChatEvent>();
  const writes: string[] = [];
  transcript.observe((change) => writes.push(`transcript:${change.value.entries.length}`));
  streaming.observe((change) => writes.push(`streaming:${change.value === null ? 'null' : change.value.text}`));
  events.observe(({ event }) => writes.push(`event:${event.type}`));
  const project = chatProjection(tree, { transcript, streaming, events }, new StreamSegments(2));
  const append = (entry: SessionEntry) => {
    branch.push(entry);
    project(
      { type: 'entry_appended', operationId: 'operationId' in entry ? entry.operationId : null, entry },
      BACKGROUND_CONTEXT,
    );
  };
  const emit = (event: HarnessEvent) => project(event, BACKGROUND_CONTEXT);
  return { writes, append, emit, transcript };
}

const at = { parentId: null, timestamp: '2025-01-01T00:00:00.000Z' };
const assistant = (id: string, text: string): SessionEntry => ({
  id,
  ...at,
  kind: 'message',
  operationId: 'op',
  message: { role: 'assistant', content: [{ type: 'text', text }], model: 'm/x', stopReason: 'stop' },
});

describe('chat projection', () => {
  it('emits each delta before the checkpoint that covers it, and the final before the transcript and the cleared cell', () => {
    const { writes, append, emit } = recordedProjection();
    for (const delta of ['a', 'b', 'c']) emit({ type: 'text_delta', operationId: 'op', delta });
    append(assistant('e1', 'abc'));
    emit({ type: 'run_settled', operationId: 'op', outcome: { outcome: 'completed', error: null } });
    expect(writes).toEqual([
      'event:delta',
      'streaming:a',
      'event:delta',
      'event:delta',
      'streaming:abc',
      'event:final',
      'transcript:1',
      'streaming:null',
      'event:settled',
    ]);
  });

  it('writes the transcript for durable entries only, not for deltas or tool starts', () => {
    const { writes, append, emit } = recordedProjection();
    append({ id: 'e0', ...at, kind: 'operation_started', operationId: 'op' });
    emit({ type: 'run_started', operationId: 'op' });
    emit({ type: 'text_delta', operationId: 'op', delta: 'x' });
    emit({ type: 'tool_started', operationId: 'op', toolCallId: 'c', toolName: 't', arguments: {} });
    expect(writes.filter((write) => write.startsWith('transcript'))).toEqual(['transcript:1']);
  });
});
