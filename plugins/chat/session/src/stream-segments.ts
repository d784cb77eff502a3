import { CHECKPOINT_EVERY, type ChatEvent, type StreamingCheckpoint } from '@pi/chat';

interface OpenSegment {
  readonly operationId: string;
  readonly segment: number;
  text: string;
  deltas: number;
}

export interface DeltaOutcome {
  readonly event: Extract<ChatEvent, { type: 'delta' }>;
  /** Set when the `streaming` cell should be checkpointed after the event is emitted. */
  readonly checkpoint: StreamingCheckpoint | null;
}

/**
 * The streaming bookkeeping of runs: which segment (assistant message) of a run is open, its text so far, and
 * when to checkpoint it. Segments are numbered per run from 0; a durable assistant entry closes one.
 */
export class StreamSegments {
  readonly #every: number;
  readonly #open = new Map<string, OpenSegment>();
  /** The next segment number of each run that has not settled. */
  readonly #next = new Map<string, number>();

  constructor(every = CHECKPOINT_EVERY) {
    this.#every = every;
  }

  /** A text delta: the event to emit, and a checkpoint at the segment's first delta and every `every` after. */
  delta(operationId: string, text: string): DeltaOutcome {
    const open = this.#open.get(operationId) ?? this.#start(operationId);
    const offset = open.text.length;
    open.text += text;
    open.deltas += 1;
    const checkpoint =
      (open.deltas - 1) % this.#every === 0
        ? { operationId, segment: open.segment, text: open.text, offset: open.text.length }
        : null;
    return { event: { type: 'delta', operationId, segment: open.segment, offset, text }, checkpoint };
  }

  /** The run's assistant message became durable: its segment closes, and the number it had is returned. */
  close(operationId: string): number {
    const open = this.#open.get(operationId);
    this.#open.delete(operationId);
    const segment = open?.segment ?? this.#take(operationId);
    this.#next.set(operationId, segment + 1);
    return segment;
  }

  /** The run settled: nothing more streams for it. */
  settle(operationId: string): void {
    this.#open.delete(operationId);
    this.#next.delete(operationId);
  }

  #start(operationId: string): OpenSegment {
    const open = { operationId, segment: this.#take(operationId), text: '', deltas: 0 };
    this.#open.set(operationId, open);
    return open;
  }

  #take(operationId: string): number {
    return this.#next.get(operationId) ?? 0;
  }
}
