import type { WatchFrame } from '@pi/remote';
import type { Backlog } from './backlog';
import { EncodedWatchFrame, payloadOf } from './encoded-frame';
import type { OutboundPressure } from './outbound-pressure';

interface Entry {
  readonly frame: WatchFrame;
  readonly payload: string;
  readonly bytes: number;
  weight: number;
  previous: Entry | undefined;
  next: Entry | undefined;
}

/** A frame's envelope (kind, seq, names, revision, trace) on top of its payload, for the byte estimate. */
const ENVELOPE_BYTES = 160;

/**
 * One watch's frames on their way out, numbered as they leave. While its connection drains, every frame is kept.
 * Under pressure (the socket is not draining, or the connection holds too many bytes), a state change replaces
 * the held change of the same cell (the newest value, in the newest position), and events are held up to
 * `maxBacklogEvents` (and the byte limit): one more drops the held events and the next frame out skips a `seq`,
 * which a client reads as lost frames and answers with a fresh snapshot. So a watch holds at most one change per
 * cell plus a bounded number of events, however much is published.
 */
export class WatchBacklog implements Backlog<WatchFrame, EncodedWatchFrame> {
  readonly #pressure: OutboundPressure;
  #head: Entry | undefined;
  #tail: Entry | undefined;
  #length = 0;
  #events = 0;
  /** The newest held change of each cell. */
  readonly #latest = new Map<string, Entry>();
  #seq = 0;
  /** Frames were dropped: the next frame out skips a number. */
  #gap = false;

  constructor(pressure: OutboundPressure) {
    this.#pressure = pressure;
  }

  get length(): number {
    return this.#length;
  }

  push(frame: WatchFrame, pressure: boolean): void {
    const payload = payloadOf(frame);
    const bytes = payload.length + ENVELOPE_BYTES;
    let weight = 1;
    if (frame.kind === 'state' && pressure) {
      const older = this.#latest.get(frame.cell);
      if (older !== undefined) weight += this.#unlink(older);
    }
    if (frame.kind === 'event' && pressure && this.#overflows(bytes)) {
      weight += this.#dropEvents();
      this.#gap = true;
      this.#pressure.overflows += 1;
    }
    const entry: Entry = { frame, payload, bytes, weight, previous: this.#tail, next: undefined };
    if (this.#tail === undefined) this.#head = entry;
    else this.#tail.next = entry;
    this.#tail = entry;
    this.#length += 1;
    this.#pressure.backlogBytes += bytes;
    if (frame.kind === 'state') this.#latest.set(frame.cell, entry);
    if (frame.kind === 'event') this.#events += 1;
  }

  shift(): { frame: EncodedWatchFrame; weight: number } | undefined {
    const entry = this.#head;
    if (entry === undefined) return undefined;
    const weight = this.#unlink(entry);
    if (entry.frame.kind === 'snapshot') {
      this.#seq = entry.frame.seq;
      return { frame: new EncodedWatchFrame(entry.frame, this.#seq, entry.payload), weight };
    }
    this.#seq += this.#gap ? 2 : 1;
    this.#gap = false;
    return { frame: new EncodedWatchFrame(entry.frame, this.#seq, entry.payload), weight };
  }

  clear(): void {
    while (this.#head !== undefined) this.#unlink(this.#head);
  }

  #overflows(bytes: number): boolean {
    const { maxBacklogEvents, maxBacklogBytes } = this.#pressure.limits;
    return this.#events >= maxBacklogEvents || this.#pressure.backlogBytes + bytes > maxBacklogBytes;
  }

  /** Drops every held event; returns their weight. */
  #dropEvents(): number {
    let weight = 0;
    for (let entry = this.#head; entry !== undefined;) {
      const next = entry.next;
      if (entry.frame.kind === 'event') weight += this.#unlink(entry);
      entry = next;
    }
    return weight;
  }

  /** Takes an entry out of the list; returns its weight. */
  #unlink(entry: Entry): number {
    if (entry.previous === undefined) this.#head = entry.next;
    else entry.previous.next = entry.next;
    if (entry.next === undefined) this.#tail = entry.previous;
    else entry.next.previous = entry.previous;
    entry.previous = undefined;
    entry.next = undefined;
    this.#length -= 1;
    this.#pressure.backlogBytes -= entry.bytes;
    if (entry.frame.kind === 'state' && this.#latest.get(entry.frame.cell) === entry)
      this.#latest.delete(entry.frame.cell);
    if (entry.frame.kind === 'event') this.#events -= 1;
    return entry.weight;
  }
}
