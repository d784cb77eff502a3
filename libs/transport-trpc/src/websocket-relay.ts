import type { Result } from 'neverthrow';
import type { RemoteErrorEnvelope } from '@pi/remote';
import type { ConnectionParams } from './authentication';
import { connectionParamsText } from './client-frames';
import { DEFAULT_CONNECTION_LIMITS } from './connection-limits';
import { connectionParamsOf, isRequestBeforeParams } from './connection-params';
import { wireError } from './error-format';
import type { ServerSocket } from './server-socket';
import { webSocketFactory, type ConnectAddress } from './websocket-client';
import { CLOSE_CODES, NOT_AUTHORIZED_REASON, type WireSocket } from './wire-socket';

/** Where a relayed connection goes, and what the relay says there in its own first message. */
export interface RelayTarget {
  readonly address: ConnectAddress;
  /** For a `wss:` target: the CA its certificate must chain to (else the system's CAs). */
  readonly ca?: string;
  /** The connection params the relay presents to the target (its token there), in place of the client's. */
  readonly connectionParams: Readonly<Record<string, string>>;
  /** What the client is told when the target cannot be reached (its socket closed before it opened). */
  unreachable(reason: string): RemoteErrorEnvelope;
}

/** Decides from a client's connection params where its connection goes, or why it goes nowhere. */
export type RelayRoute = (params: ConnectionParams) => Promise<Result<RelayTarget, RemoteErrorEnvelope>>;

export interface RelayOptions {
  /** A client that sends no connection params this long after it connected is refused (default 10 s). */
  readonly paramsWaitMs?: number;
  /** Frames a client may send before the target opens (default 1024); more closes the connection. */
  readonly maxPendingFrames?: number;
  /**
   * Bytes the client's socket may hold unsent before the relay stops reading the target (default 1 MiB), and below
   * which it reads again (default 256 KiB): the target's own writes then back up, so its flow control sees a slow
   * client as it would on a direct connection, and the relay holds no unbounded queue.
   */
  readonly highWaterBytes?: number;
  readonly lowWaterBytes?: number;
  /** How the relay connects to a target (a test's stand-in); a `ws` client socket by default. */
  readonly dial?: (target: RelayTarget) => WireSocket;
  /** Shared by a listener's relays: how many clients may be awaiting their route at once (`relayAdmission`). */
  readonly admission?: RelayAdmission;
}

/** Clients a listener's relays hold before they are routed; one more is refused at once (1013, try again later). */
export interface RelayAdmission {
  admit(): boolean;
  release(): void;
}

/** At most `limit` clients awaiting their route (by default a host's own `maxUnauthenticated`, 128). */
export function relayAdmission(limit: number = DEFAULT_CONNECTION_LIMITS.maxUnauthenticated): RelayAdmission {
  let waiting = 0;
  return {
    admit: () => (waiting < limit ? ((waiting += 1), true) : false),
    release: () => void (waiting = Math.max(0, waiting - 1)),
  };
}

export const DEFAULT_RELAY_PARAMS_WAIT_MS = 10_000;
const DEFAULT_MAX_PENDING_FRAMES = 1024;
const DEFAULT_HIGH_WATER_BYTES = 1024 * 1024;
const DEFAULT_LOW_WATER_BYTES = 256 * 1024;
/** How often a paused relay looks whether the client's socket has drained (`ws` has no drain event). */
const DRAIN_POLL_MS = 10;
const SOCKET_OPEN = 1;
/** A close reason is at most 123 bytes on the wire. */
const MAX_REASON_BYTES = 120;

/**
 * Serves one accepted client socket by relaying it, frame for frame, to another pi host: the client's first message
 * (its connection params) goes to `route`, which authenticates it and names the target; the relay then connects
 * there with the target's own params and passes every later frame through unchanged, both ways (calls, watch
 * frames, the client's heartbeat). Nothing is parsed after the first message, so the client speaks to the target
 * exactly as it would directly, and the target's keep-alive and flow control reach the client (a client that reads
 * slowly makes the relay stop reading the target, so the target's writes back up as on a direct connection).
 *
 * A refusal is the frame a host sends for a refused connection (`{ id: null, error }` with pi's envelope), then a
 * close: 4401 for `not_authorized`, as a host's own, so a client stops retrying; 1008 with the code as the reason
 * otherwise. When either side closes, the other is closed; a target's close code is passed on when it may be sent.
 */
export function relayWebSocket(client: ServerSocket, route: RelayRoute, options: RelayOptions = {}): void {
  if (options.admission !== undefined && !options.admission.admit())
    return client.close(CLOSE_CODES.tryAgainLater, 'too many connections awaiting authentication');
  let admitted = options.admission !== undefined;
  /** The client is routed (or refused, or gone): it no longer counts as awaiting. */
  const routed = () => {
    if (admitted) options.admission?.release();
    admitted = false;
  };
  const maxPending = options.maxPendingFrames ?? DEFAULT_MAX_PENDING_FRAMES;
  const pending: string[] = [];
  let phase: 'params' | 'routing' | 'relaying' | 'closed' = 'params';
  let target: WireSocket | undefined;
  let targetOpen = false;

  const open = () => client.readyState === SOCKET_OPEN;
  const refuse = (envelope: RemoteErrorEnvelope) => {
    routed();
    if (phase === 'closed') return;
    phase = 'closed';
    target?.close(CLOSE_CODES.normal, 'the client was refused');
    if (!open()) return;
    client.send(refusalFrame(envelope));
    // After the frame, which the client reads as the reason; the close code alone still stops a client retrying.
    setImmediate(() =>
      envelope.code === 'not_authorized'
        ? client.close(CLOSE_CODES.notAuthorized, NOT_AUTHORIZED_REASON)
        : client.close(CLOSE_CODES.policy, clipReason(envelope.code)),
    );
  };
  const timer = setTimeout(
    () => refuse({ code: 'not_authorized', message: 'No connection params in time' }),
    options.paramsWaitMs ?? DEFAULT_RELAY_PARAMS_WAIT_MS,
  );
  timer.unref();

  const high = options.highWaterBytes ?? DEFAULT_HIGH_WATER_BYTES;
  const low = options.lowWaterBytes ?? DEFAULT_LOW_WATER_BYTES;
  let draining: NodeJS.Timeout | undefined;
  const unsent = () => client.bufferedAmount ?? 0;
  /** Stops reading the target while the client's socket holds more than `high`, until it holds `low` or less. */
  const holdBack = (socket: WireSocket) => {
    if (draining !== undefined || unsent() <= high || socket.pause === undefined) return;
    socket.pause();
    draining = setInterval(() => {
      if (open() && unsent() > low) return;
      clearInterval(draining);
      draining = undefined;
      socket.resume?.();
    }, DRAIN_POLL_MS);
    draining.unref();
  };

  const connect = (to: RelayTarget) => {
    routed();
    phase = 'relaying';
    const socket = options.dial?.(to) ?? webSocketFactory(to.address, to.ca === undefined ? {} : { ca: to.ca })();
    target = socket;
    socket.onOpen(() => {
      if (phase === 'closed') return socket.close(CLOSE_CODES.normal, 'the client left');
      targetOpen = true;
      // What a pi client sends first, with the target's token in it.
      socket.send(connectionParamsText(to.connectionParams));
      for (const frame of pending.splice(0)) socket.send(frame);
    });
    socket.onMessage((data) => {
      if (!open()) return;
      client.send(data);
      holdBack(socket);
    });
    socket.onClose((code, reason) => {
      if (!targetOpen) return refuse(to.unreachable(reason === '' ? `closed with code ${code}` : reason));
      if (phase === 'closed') return;
      phase = 'closed';
      if (!open()) return;
      if (sendableCode(code)) client.close(code, clipReason(reason));
      else client.close(CLOSE_CODES.goingAway, clipReason(`the relayed connection closed (code ${code})`));
    });
  };

  client.on('message', (data: Buffer | ArrayBuffer | Buffer[]) => {
    const text = textOf(data);
    switch (phase) {
      case 'params':
        return first(text);
      case 'routing':
      case 'relaying':
        if (targetOpen) return target?.send(text);
        if (pending.length >= maxPending) return refuse({ code: 'limit_exceeded', message: 'Too many frames' });
        pending.push(text);
        return;
      case 'closed':
        return;
    }
  });
  client.once('close', () => {
    routed();
    clearTimeout(timer);
    clearInterval(draining);
    const was = phase;
    phase = 'closed';
    if (was !== 'closed') target?.close(CLOSE_CODES.normal, 'the client left');
  });

  function first(text: string): void {
    clearTimeout(timer);
    if (isRequestBeforeParams(text))
      return refuse({ code: 'not_authorized', message: 'A request came before the connection params' });
    let params: ConnectionParams;
    try {
      params = connectionParamsOf(text);
    } catch {
      return refuse({ code: 'invalid_argument', message: 'Malformed connection params' });
    }
    phase = 'routing';
    route(params).then(
      (routed) => {
        if (phase === 'closed') return;
        if (routed.isErr()) return refuse(routed.error);
        connect(routed.value);
      },
      () => refuse({ code: 'internal', message: 'Internal error' }),
    );
  }
}

/** `{ id: null, error }`: a refused connection, formatted as the wire server formats one before authentication. */
function refusalFrame(remote: RemoteErrorEnvelope): string {
  return JSON.stringify({ id: null, error: wireError(remote, false) });
}

/** Codes a close frame may carry (1005, 1006 and 1015 only ever describe a close, locally). */
function sendableCode(code: number): boolean {
  return (code >= 1000 && code <= 1014 && ![1004, 1005, 1006].includes(code)) || (code >= 3000 && code <= 4999);
}

function clipReason(reason: string): string {
  const bytes = Buffer.from(reason, 'utf8');
  return bytes.length <= MAX_REASON_BYTES ? reason : `${bytes.subarray(0, MAX_REASON_BYTES - 3).toString('utf8')}...`;
}

function textOf(data: Buffer | ArrayBuffer | Buffer[]): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data).toString('utf8');
}
