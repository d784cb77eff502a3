import type { JsonValue, WatchFrame } from '@pi/remote';

/**
 * Encode once, send to many. A state value or event is the same frozen object for every connection that sees it
 * unprojected, so its JSON text is computed once (cached per object) and spliced into each connection's frame;
 * only what differs per connection (tRPC's subscription id, the watch's `seq`) is encoded per connection. A
 * projected value is shared, and encoded once, by the connections with the same `projectionKey`; without a key it
 * is a new object per connection and is encoded for that connection. The bytes are exactly `JSON.stringify` of the
 * same frame (tested in `encoded-frame.test.ts`).
 */
const valueTexts = new WeakMap<object, string>();

/** The JSON text of a strict-JSON value, cached for frozen objects and arrays (state and events are frozen). */
export function jsonText(value: JsonValue): string {
  if (typeof value !== 'object' || value === null || !Object.isFrozen(value)) return JSON.stringify(value);
  let text = valueTexts.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    valueTexts.set(value, text);
  }
  return text;
}

/** The JSON text of a frame's payload: a change's value, an event, or a snapshot's `state` (values cached). */
export function payloadOf(frame: WatchFrame): string {
  switch (frame.kind) {
    case 'state':
      return jsonText(frame.value);
    case 'event':
      return jsonText(frame.event);
    case 'snapshot': {
      const cells = Object.entries(frame.state).map(
        ([cell, { revision, value }]) =>
          `${JSON.stringify(cell)}:{"revision":${JSON.stringify(revision)},"value":${jsonText(value)}}`,
      );
      return `{${cells.join(',')}}`;
    }
  }
}

/** A watch frame on its way to one connection: its `seq` there, and the JSON text of its value or event. */
export class EncodedWatchFrame {
  readonly frame: WatchFrame;
  readonly seq: number;
  /** `payloadOf(frame)`. */
  readonly payload: string;

  constructor(frame: WatchFrame, seq: number, payload: string) {
    this.frame = frame;
    this.seq = seq;
    this.payload = payload;
  }

  /** The frame as `JSON.stringify` would write it, with the payload spliced in rather than encoded again. */
  get text(): string {
    const { frame, seq } = this;
    switch (frame.kind) {
      case 'snapshot':
        return `{"kind":"snapshot","seq":${seq},"state":${this.payload}}`;
      case 'state':
        return `{"kind":"state","seq":${seq},"cell":${JSON.stringify(frame.cell)},"revision":${JSON.stringify(frame.revision)},"value":${this.payload}${traceText(frame.trace)}}`;
      case 'event':
        return `{"kind":"event","seq":${seq},"stream":${JSON.stringify(frame.stream)},"event":${this.payload}${traceText(frame.trace)}}`;
    }
  }

  /** Anything that serializes the frame the ordinary way gets the same bytes. */
  toJSON(): WatchFrame {
    return { ...this.frame, seq: this.seq };
  }
}

function traceText(trace: unknown): string {
  return trace === undefined ? '' : `,"trace":${JSON.stringify(trace)}`;
}

/** The constant start of one request's data frames: `{"id":…,"jsonrpc"?:…,"result":{"type":"data","data":`. */
export function dataHead(id: string | number, jsonrpc: '2.0' | undefined): string {
  return `{"id":${JSON.stringify(id)},${jsonrpc === undefined ? '' : '"jsonrpc":"2.0",'}"result":{"type":"data","data":`;
}

/**
 * A data frame as tRPC's ws adapter writes it — `JSON.stringify` of `{ id, jsonrpc?, result: { type: 'data', data:
 * { json: value } } }` — byte for byte, with a watch frame's text, encoded once for every connection, spliced in.
 */
export function dataFrame(head: string, value: unknown): string {
  if (value instanceof EncodedWatchFrame) return `${head}{"json":${value.text}}}}`;
  const json = JSON.stringify(value);
  return json === undefined ? `${head}{}}}` : `${head}{"json":${json}}}}`;
}
