import type { HarnessEvent, SessionTree } from '@pi/agent';
import type { ChatEvent, ChatTranscript, StreamingCheckpoint } from '@pi/chat';
import type { Context } from '@pi/context';
import type { MutableRemoteEvents, MutableRemoteState } from '@pi/remote';
import { StreamSegments } from './stream-segments';
import { projectTranscript, toTranscriptEntry } from './transcript-projection';

export interface ChatStreams {
  readonly transcript: MutableRemoteState<ChatTranscript>;
  readonly streaming: MutableRemoteState<StreamingCheckpoint | null>;
  readonly events: MutableRemoteEvents<ChatEvent>;
}

/**
 * Projects the harness's progress events into the three chat streams, by weight: each token as a delta
 * event, the open segment as an occasional checkpoint, and the whole transcript only when a durable entry is
 * appended. Each event is handled in one synchronous step, so a client's snapshot sees all of its writes or
 * none, and the writes of one step reach clients in the order they are made here.
 */
export function chatProjection(
  tree: SessionTree,
  streams: ChatStreams,
  segments = new StreamSegments(),
): (event: HarnessEvent, source: Context) => void {
  const { transcript, streaming, events } = streams;
  return (event, source) => {
    switch (event.type) {
      case 'text_delta': {
        const { event: delta, checkpoint } = segments.delta(event.operationId, event.delta);
        events.emit(delta, source);
        // After the delta it covers, so a client applying both in order never sees the checkpoint run ahead.
        if (checkpoint !== null) streaming.set(checkpoint, source);
        return;
      }
      case 'entry_appended': {
        const projected = toTranscriptEntry(event.entry);
        const closesSegment = projected?.kind === 'assistant' && event.operationId !== null;
        if (closesSegment && event.operationId !== null) {
          events.emit(
            {
              type: 'final',
              operationId: event.operationId,
              segment: segments.close(event.operationId),
              entry: projected,
            },
            source,
          );
        }
        // Re-read from the branch, not appended to the last value: navigation may have moved the leaf.
        transcript.set(projectTranscript(tree.branch()), source);
        if (closesSegment) streaming.set(null, source);
        return;
      }
      case 'run_settled':
        segments.settle(event.operationId);
        events.emit(
          {
            type: 'settled',
            operationId: event.operationId,
            outcome: event.outcome.outcome,
            error: event.outcome.error,
          },
          source,
        );
        streaming.set(null, source);
        return;
      case 'run_started':
      case 'tool_started':
        // The transcript shows both once they are durable (run_started) or have a result (tool calls).
        return;
    }
  };
}
