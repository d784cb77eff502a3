import type { ChatEvent, StreamingCheckpoint } from './chat-events';

/** A presentation's "text so far" of the open segment, built from a checkpoint and the deltas after it. */
export interface StreamingView {
  readonly operationId: string;
  readonly segment: number;
  readonly text: string;
  /** A delta was missed: `text` is an incomplete prefix, and the view waits for the segment's `final`. */
  readonly waitingForFinal: boolean;
}

/** The view a late joiner starts from: the `streaming` checkpoint of its snapshot. */
export function streamingViewFrom(checkpoint: StreamingCheckpoint | null): StreamingView | null {
  if (checkpoint === null) return null;
  return {
    operationId: checkpoint.operationId,
    segment: checkpoint.segment,
    text: checkpoint.text,
    waitingForFinal: false,
  };
}

/** The view after one event of the `events` stream (see the late-join rule on ChatService). */
export function applyChatEvent(view: StreamingView | null, event: ChatEvent): StreamingView | null {
  switch (event.type) {
    case 'delta':
      return applyDelta(view, event);
    case 'final':
      // The durable entry replaces the streamed text, unless the view has already moved past this segment.
      return view !== null && view.operationId === event.operationId && view.segment > event.segment ? view : null;
    case 'settled':
      return view !== null && view.operationId === event.operationId ? null : view;
    case 'appended':
      // The durable record; the streamed segment ends with its `final`.
      return view;
  }
}

/**
 * The view after the `streaming` cell changed. A later checkpoint of the same segment can only extend the text
 * (checkpoints arrive after the deltas they cover), so it also closes a gap; null means no segment is open.
 */
export function applyChatCheckpoint(
  view: StreamingView | null,
  checkpoint: StreamingCheckpoint | null,
): StreamingView | null {
  if (checkpoint === null) return null;
  if (view === null || !sameSegment(view, checkpoint)) return streamingViewFrom(checkpoint);
  return checkpoint.text.length >= view.text.length ? streamingViewFrom(checkpoint) : view;
}

function applyDelta(view: StreamingView | null, delta: Extract<ChatEvent, { type: 'delta' }>): StreamingView | null {
  if (view === null || !sameSegment(view, delta)) {
    if (view !== null && view.operationId === delta.operationId && view.segment > delta.segment) return view;
    // A new segment: complete only when this is its first delta.
    const start = delta.offset === 0;
    return {
      operationId: delta.operationId,
      segment: delta.segment,
      text: start ? delta.text : '',
      waitingForFinal: !start,
    };
  }
  if (view.waitingForFinal) return view;
  if (delta.offset > view.text.length) return { ...view, waitingForFinal: true };
  const end = delta.offset + delta.text.length;
  if (end <= view.text.length) return view;
  return { ...view, text: view.text + delta.text.slice(view.text.length - delta.offset) };
}

function sameSegment(view: StreamingView, other: { operationId: string; segment: number }): boolean {
  return view.operationId === other.operationId && view.segment === other.segment;
}
