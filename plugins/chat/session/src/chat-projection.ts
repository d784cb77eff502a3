import type { HarnessEvent, SessionTree } from '@pi/agent';
import type { ChatEvent, StreamingCheckpoint, TranscriptHead, TranscriptPage } from '@pi/chat';
import type { Context } from '@pi/context';
import { runListener, type MutableRemoteEvents, type MutableRemoteState } from '@pi/remote';
import { StreamSegments } from './stream-segments';
import { TickDeltas, type EndOfTick } from './tick-deltas';
import type { TranscriptLog } from './transcript-log';
import { toTranscriptEntry } from './transcript-projection';

export interface ChatStreams {
  readonly recent: MutableRemoteState<TranscriptPage>;
  readonly transcript: MutableRemoteState<TranscriptHead>;
  readonly streaming: MutableRemoteState<StreamingCheckpoint | null>;
  readonly events: MutableRemoteEvents<ChatEvent>;
}

/**
 * The end of the tick, with a throw contained as the harness contains a listener's: held text is sent from a tick of
 * its own, where a throw would otherwise end the session.
 */
const nextTick: EndOfTick = (flush) => process.nextTick(() => runListener(flush, 'Sending streamed text failed'));

/**
 * Projects the harness's progress events into the chat streams, by weight: the tokens of one tick as one delta
 * event (`TickDeltas`), the open segment as an occasional checkpoint, each durable entry once as an `appended` event
 * plus the small head, and the `recent` window only every TRANSCRIPT_CHECKPOINT_EVERY entries or for a new branch.
 * Each event is handled in one synchronous step, so a client's snapshot sees all of its writes or none, and the
 * writes of one step reach clients in the order they are made here. Held text leaves before anything else this
 * projection writes, and before the projections registered after it hear of the next harness event (the queue,
 * status and usage cells), so merging reorders nothing.
 */
export function chatProjection(
  tree: Pick<SessionTree, 'branch' | 'leafId'>,
  log: TranscriptLog,
  streams: ChatStreams,
  segments = new StreamSegments(),
  endOfTick: EndOfTick = nextTick,
): (event: HarnessEvent, source: Context) => void {
  const { recent, transcript, streaming, events } = streams;
  const deltas = new TickDeltas((operationId, text, source) => {
    const { event: delta, checkpoint } = segments.delta(operationId, text);
    events.emit(delta, source);
    // After the delta it covers, so a client applying both in order never sees the checkpoint run ahead.
    if (checkpoint !== null) streaming.set(checkpoint, source);
  }, endOfTick);
  return (event, source) => {
    if (event.type === 'text_delta') return deltas.add(event.operationId, event.delta, source);
    deltas.flush();
    switch (event.type) {
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
        const change = log.advance(event.entry, tree);
        if (change.kind === 'appended') {
          for (const { index, entry } of change.appended)
            events.emit({ type: 'appended', branch: log.branch, index, entry }, source);
        }
        // `recent` before the head: a client that sees the new head can already read the window it implies.
        if (change.kind === 'replaced' || (change.kind === 'appended' && change.checkpoint))
          recent.set(log.window(), source);
        if (change.kind !== 'none') transcript.set(log.head(), source);
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
