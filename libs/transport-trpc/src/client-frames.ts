import superjson from 'superjson';
import type { ErrorShape, Operation } from './rpc-operation';

/**
 * The tRPC WebSocket frames as the client end writes and reads them (docs/protocol.md). Pure: no socket, no state;
 * `RpcConnection` decides what each frame does to the operations in flight.
 */

/** The first frame on a socket: `{ method: 'connectionParams', data: params }` (the token lives here, never in a URL). */
export function connectionParamsText(params: Readonly<Record<string, string>>): string {
  return JSON.stringify({ method: 'connectionParams', data: params });
}

/** The bytes of `JSON.stringify({ id, method, params: { path, input } })`, with only the input stringified. */
export function operationText(id: number, op: Operation): string {
  const { type, path, input } = op;
  const inputText = input === undefined ? undefined : JSON.stringify(input);
  const params = inputText === undefined ? '' : `,"input":${inputText}`;
  return `{"id":${id},"method":"${type}","params":{"path":${JSON.stringify(path)}${params}}}`;
}

/** `{ id, method: 'subscription.stop' }`: the server stops the subscription started under `id`. */
export function subscriptionStopText(id: number): string {
  return JSON.stringify({ id, method: 'subscription.stop' });
}

/** A frame from the host, as far as the client acts on it. */
export type ServerFrame =
  | { readonly kind: 'ping' }
  /** A compact call's reply: `[id, …]` (compact-calls.ts). */
  | { readonly kind: 'compactReply'; readonly reply: readonly unknown[] }
  /** `{ id: null, method: 'reconnect' }`: the server asks every client to come back, e.g. before a restart. */
  | { readonly kind: 'reconnect' }
  /** `{ id: null, error }`: the connection itself was refused (authentication); the server closes next. */
  | { readonly kind: 'refused'; readonly error: ErrorShape }
  /** `{ id, error }`: the operation failed; `error` is as sent, read by `untransformed` once its operation is found. */
  | { readonly kind: 'failed'; readonly id: number; readonly error: ErrorShape }
  /** `{ id, result: { type: 'started' | 'data' | 'stopped', data? } }` */
  | { readonly kind: 'result'; readonly id: number; readonly type: string | undefined; readonly data: unknown }
  /** PONG, text that is not JSON, or a message of no operation: nothing to do. */
  | { readonly kind: 'ignored' };

const PING: ServerFrame = { kind: 'ping' };
const RECONNECT: ServerFrame = { kind: 'reconnect' };
const IGNORED: ServerFrame = { kind: 'ignored' };

export function readServerFrame(data: string): ServerFrame {
  if (data === 'PING') return PING;
  if (data === 'PONG') return IGNORED;
  let decoded: unknown;
  try {
    decoded = JSON.parse(data);
  } catch {
    return IGNORED;
  }
  if (typeof decoded !== 'object' || decoded === null) return IGNORED;
  if (Array.isArray(decoded)) return { kind: 'compactReply', reply: decoded };
  const message = decoded as {
    id?: unknown;
    result?: { type?: string; data?: unknown };
    error?: ErrorShape;
    method?: string;
  };
  if (message.method === 'reconnect') return RECONNECT;
  if (message.id === null && message.error !== undefined)
    return { kind: 'refused', error: untransformed(message.error) };
  if (typeof message.id !== 'number') return IGNORED;
  if (message.error !== undefined) return { kind: 'failed', id: message.id, error: message.error };
  return { kind: 'result', id: message.id, type: message.result?.type, data: message.result?.data };
}

/** Error shapes the server sends are transformer-encoded (`{ json, meta }`), like results. */
export function untransformed(shape: ErrorShape): ErrorShape {
  return typeof shape === 'object' && shape !== null && 'json' in shape ? superjson.deserialize(shape as never) : shape;
}

/** A result's data as it arrives: transformer-encoded (`{ json }`). */
export function untransformedData(data: unknown): unknown {
  return typeof data === 'object' && data !== null && 'json' in data ? superjson.deserialize(data as never) : data;
}
