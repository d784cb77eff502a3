import type { IncomingMessage } from 'node:http';
import type { CallResponse, RemoteErrorEnvelope } from '@pi/remote';
import { TRPCError, type AnyRouter } from '@trpc/server';
import {
  getErrorShape,
  parseTRPCMessage,
  transformTRPCResponse,
  type TRPCClientOutgoingMessage,
} from '@trpc/server/unstable-core-do-not-import';
import { Admission } from './admission';
import { CompactCall, compactErrorText, compactReplyText, isCompactCall, readCompactCall } from './compact-calls';
import { connectionLimits, type ConnectionLimits } from './connection-limits';
import { connectionParamsExpected, connectionParamsOf, isRequestBeforeParams } from './connection-params';
import { dataFrame, dataHead } from './encoded-frame';
import { FairScheduler } from './fair-scheduler';
import { FrameStream } from './frame-stream';
import type { ProcedureTable } from './host-procedure';
import type { ServerSocket } from './server-socket';
import { keepAlive } from './server-keep-alive';
import { CLOSE_CODES, NOT_AUTHORIZED_REASON } from './wire-socket';

const SOCKET_OPEN = 1;
/** What a compact call's failure says when the formatter gave no envelope (it always does: formatError). */
const INTERNAL: RemoteErrorEnvelope = { code: 'internal', message: 'Internal error' };

type RequestId = string | number | null;
type ProcedureType = 'query' | 'mutation' | 'subscription' | 'unknown';

export interface WireServerOptions<Ctx> {
  /** The router whose config (transformer, error formatter) shapes every reply, as tRPC's adapter would. */
  readonly router: AnyRouter;
  /** The same procedures as the router, flattened: what a request is dispatched to. */
  readonly procedures: ProcedureTable;
  /** Authenticates a connection from its connection params; a throw refuses it (sent with id null, then closed). */
  readonly createContext: (socket: ServerSocket, connectionParams: Record<string, string> | null) => Promise<Ctx>;
  /** Ping a quiet client after `pingMs`, terminate it if nothing arrives within `pongWaitMs`. */
  readonly keepAlive?: { readonly pingMs: number; readonly pongWaitMs: number };
  /** The authentication deadline, the cap on sockets awaiting it, and each connection's share of a turn. */
  readonly connections?: Partial<ConnectionLimits>;
}

/** A subscription of this connection, from its request until its stream ends. */
interface Subscription {
  stopped: boolean;
  stream: FrameStream<unknown, unknown> | undefined;
  stop(): void;
}

/**
 * tRPC's WebSocket protocol, served by us: the frames a client sends and receives are the ones tRPC's ws adapter
 * (`getWSConnectionHandler`) reads and writes — `wire-server.test.ts` runs the same conversations through both
 * and compares every byte — but a call goes straight from the parsed message to its procedure's `resolve`,
 * without the adapter's per-request abort controller, async-iterator races and middleware pipeline, which were
 * most of a call's server cost. Errors still take tRPC's own path (`getErrorShape`, `transformTRPCResponse`).
 *
 * A mutation's work is not aborted here when the socket closes: the connection's endpoint ends its calls then.
 *
 * Where it departs from tRPC's adapter, on purpose (docs/decisions.md, "Admission and fairness"): a socket must be
 * authenticated within a deadline, and only so many may wait for that; a request sent before the connection params
 * is refused as not authorized (4401), not as malformed params; and each connection's requests take turns with the
 * other connections' (`FairScheduler`) instead of all being started as they are read. And beside tRPC's messages it
 * reads pi's compact calls (compact-calls.ts), a service call without tRPC's envelopes, answered in the same form.
 */
export function createWireServer<Ctx>(
  options: WireServerOptions<Ctx>,
): (socket: ServerSocket, request: IncomingMessage) => void {
  const config = options.router._def._config;
  const transformer = config.transformer;
  const limits = connectionLimits(options.connections);
  const admission = new Admission(limits);
  const scheduler = new FairScheduler(limits.requestsPerTurn);

  return (socket, request) => {
    if (!admission.admit(socket, () => authenticationExpired())) return;
    const subscriptions = new Map<string | number, Subscription>();
    let ctx: Ctx | undefined;
    let ctxPromise: Promise<{ ok: true; ctx: Ctx } | { ok: false; error: TRPCError }> | undefined;

    const open = () => socket.readyState === SOCKET_OPEN;
    const send = (text: string) => {
      if (open()) socket.send(text);
    };
    const errorShape = (error: TRPCError, type: ProcedureType, path: string | undefined, input: unknown) =>
      getErrorShape({ config, error, type, path, input, ctx });
    const respondError = (
      id: RequestId,
      jsonrpc: '2.0' | undefined,
      cause: unknown,
      type: ProcedureType,
      path?: string,
      input?: unknown,
    ) => {
      const error = trpcErrorOf(cause);
      send(JSON.stringify(transformTRPCResponse(config, { id, jsonrpc, error: errorShape(error, type, path, input) })));
    };

    const startContext = (connectionParams: () => Record<string, string> | null) => {
      ctxPromise = (async () => {
        try {
          ctx = await options.createContext(socket, connectionParams());
          admission.authenticated(socket);
          return { ok: true as const, ctx };
        } catch (cause) {
          const error = trpcErrorOf(cause);
          respondError(null, undefined, error, 'unknown');
          setImmediate(() => socket.close());
          return { ok: false as const, error };
        }
      })();
    };
    if (connectionParamsExpected(request) === false) startContext(() => null);

    /** The connection is refused as a wrong token is: the refusal (id null), then a close with 4401. */
    const refuseUnauthenticated = (message: string, then: () => void = () => undefined) => {
      const error = new TRPCError({ code: 'UNAUTHORIZED', message });
      ctxPromise = Promise.resolve({ ok: false, error });
      respondError(null, undefined, error, 'unknown');
      setImmediate(() => {
        socket.close(CLOSE_CODES.notAuthorized, NOT_AUTHORIZED_REASON);
        then();
      });
    };

    const authenticationExpired = () => {
      // Refused already (a wrong token), and the peer has not finished closing: it holds its place no longer.
      if (!open()) return socket.terminate();
      // No params: refused as not authorized, and closed without waiting for a peer that may never answer.
      if (ctxPromise === undefined)
        return refuseUnauthenticated('No connection params in time', () => socket.terminate());
      // The host's own authentication has not answered: the client may try again.
      socket.close(CLOSE_CODES.tryAgainLater, 'authentication took too long');
      socket.terminate();
    };

    const dispatch = async (message: TRPCClientOutgoingMessage) => {
      const { id, jsonrpc } = message;
      if (id === null) {
        respondError(id, jsonrpc, new TRPCError({ code: 'PARSE_ERROR', message: '`id` is required' }), 'unknown');
        return;
      }
      if (message.method === 'subscription.stop') {
        subscriptions.get(id)?.stop();
        return;
      }
      const { path, lastEventId } = message.params;
      let input = message.params.input;
      if (lastEventId !== undefined) input = withLastEventId(input, lastEventId);
      const type = message.method;
      if (type === 'subscription' && subscriptions.has(id)) {
        respondError(id, jsonrpc, new TRPCError({ code: 'BAD_REQUEST', message: `Duplicate id ${id}` }), type, path);
        return;
      }
      const subscription = type === 'subscription' ? registerSubscription(id) : undefined;
      try {
        const current = ctx ?? (await contextOrThrow());
        // A subscription stopped (or a socket closed) while the connection was being authenticated never starts.
        const cancelled = subscription !== undefined && (subscription.stopped || !open());
        if (!cancelled) {
          const procedure = options.procedures.get(path);
          if (procedure === undefined || procedure.type !== type)
            throw new TRPCError({ code: 'NOT_FOUND', message: `No procedure found on path "${path}"` });
          let parsed: unknown;
          try {
            parsed = procedure.parse === undefined ? undefined : procedure.parse(input);
          } catch (cause) {
            throw new TRPCError({ code: 'BAD_REQUEST', cause: cause as Error });
          }
          const result = await procedure.resolve(current as never, parsed);
          if (subscription === undefined) return void send(dataFrame(dataHead(id, jsonrpc), result));
          await streamSubscription(id, jsonrpc, subscription, result, path, input);
        }
      } catch (cause) {
        // As tRPC's adapter: a request that fails before its stream starts gets the error and no `stopped`.
        return respondError(id, jsonrpc, cause, type, path, input);
      } finally {
        if (subscription !== undefined && subscriptions.get(id) === subscription) subscriptions.delete(id);
      }
      send(JSON.stringify({ id, jsonrpc, result: { type: 'stopped' } }));
    };

    /**
     * A compact call: the same procedure, input checks and error formatting as its tRPC form, with a positional reply.
     * Only a service call may come this way (any other path is not found). Not async: the endpoint's promise is
     * answered by one reaction, with no promise or frame of this function's own per call.
     */
    const dispatchCall = (frame: CompactCall): void => {
      if (ctx === undefined) {
        contextOrThrow().then(
          () => dispatchCall(frame),
          (cause: unknown) => refuseCall(frame, cause),
        );
        return;
      }
      const { id, path, input } = frame;
      let reply: Promise<CallResponse>;
      try {
        const procedure = options.procedures.get(path);
        if (procedure?.call !== true)
          throw new TRPCError({ code: 'NOT_FOUND', message: `No procedure found on path "${path}"` });
        let parsed: unknown;
        try {
          parsed = procedure.parse?.(input);
        } catch (cause) {
          throw new TRPCError({ code: 'BAD_REQUEST', cause: cause as Error });
        }
        reply = procedure.resolve(ctx as never, parsed) as Promise<CallResponse>;
      } catch (cause) {
        return refuseCall(frame, cause);
      }
      reply.then(
        (response) => {
          try {
            send(compactReplyText(id, response));
          } catch (cause) {
            refuseCall(frame, cause);
          }
        },
        (cause: unknown) => refuseCall(frame, cause),
      );
    };

    const refuseCall = (frame: CompactCall, cause: unknown) => {
      const shape = errorShape(trpcErrorOf(cause), 'mutation', frame.path, frame.input);
      send(
        compactErrorText(frame.id, (shape.data as { remote?: RemoteErrorEnvelope } | undefined)?.remote ?? INTERNAL),
      );
    };

    const contextOrThrow = async (): Promise<Ctx> => {
      const outcome = await ctxPromise;
      if (outcome === undefined) throw new TRPCError({ code: 'BAD_REQUEST', message: 'No connection params yet' });
      if (!outcome.ok) throw outcome.error;
      return outcome.ctx;
    };

    const registerSubscription = (id: string | number): Subscription => {
      const subscription: Subscription = {
        stopped: false,
        stream: undefined,
        stop() {
          if (subscription.stopped) return;
          subscription.stopped = true;
          void subscription.stream?.return();
        },
      };
      subscriptions.set(id, subscription);
      return subscription;
    };

    /**
     * Every subscription procedure of a host returns a `FrameStream`; the wire server pipes it (`FrameStream.pipe`):
     * each frame is written as it comes, with no promise per frame.
     */
    const streamSubscription = async (
      id: string | number,
      jsonrpc: '2.0' | undefined,
      subscription: Subscription,
      stream: unknown,
      path: string,
      input: unknown,
    ) => {
      if (!(stream instanceof FrameStream))
        throw new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: `Subscription ${path} did not return a stream` });
      subscription.stream = stream;
      if (subscription.stopped || !open()) {
        subscription.stopped = true;
        return void (await stream.return());
      }
      send(JSON.stringify({ id, jsonrpc, result: { type: 'started' } }));
      const head = dataHead(id, jsonrpc);
      try {
        await stream.pipe((frame) => send(dataFrame(head, frame)));
      } catch (cause) {
        if (!subscription.stopped) respondError(id, jsonrpc, cause, 'subscription', path, input);
      }
      subscription.stopped = true;
    };

    const lane = scheduler.lane<TRPCClientOutgoingMessage | CompactCall>(
      (message) => (message instanceof CompactCall ? dispatchCall(message) : void dispatch(message)),
      socket,
    );

    if (options.keepAlive !== undefined) keepAlive(socket, options.keepAlive.pingMs, options.keepAlive.pongWaitMs);

    socket.on('message', (raw: unknown, isBinary: boolean) => {
      // As tRPC's adapter, a text message is read for PING and PONG before it must be a Buffer.
      const text = isBinary ? undefined : String(raw);
      if (text === 'PONG') return;
      if (text === 'PING') return send('PONG');
      if (!Buffer.isBuffer(raw)) {
        const error = new TRPCError({ code: 'UNPROCESSABLE_CONTENT', message: 'Unexpected WebSocket message format' });
        return respondError(null, undefined, error, 'unknown');
      }
      if (ctxPromise === undefined) {
        if (!isRequestBeforeParams(text)) return startContext(() => connectionParamsOf(text));
        // A call before the connection params: refused as not authorized, then each request with its own id.
        refuseUnauthenticated('Connection params must come first');
      }
      let messages: TRPCClientOutgoingMessage[];
      try {
        if (text === undefined) throw new Error('JSON uses text frames');
        const decoded: unknown = JSON.parse(text);
        if (isCompactCall(decoded)) {
          const frame = readCompactCall(decoded);
          if (frame === undefined) throw new Error('A compact call has an integer id');
          return frame instanceof CompactCall ? lane.submit(frame) : send(frame.refusal);
        }
        messages = Array.isArray(decoded)
          ? decoded.map((item) => parseTRPCMessage(item, transformer))
          : [parseTRPCMessage(decoded, transformer)];
      } catch (cause) {
        return respondError(null, undefined, new TRPCError({ code: 'PARSE_ERROR', cause: cause as Error }), 'unknown');
      }
      for (const message of messages) lane.submit(message);
    });
    // A socket error is followed by its close, which ends everything below.
    socket.on('error', () => undefined);
    socket.once('close', () => {
      lane.close();
      for (const subscription of subscriptions.values()) subscription.stop();
      subscriptions.clear();
    });
  };
}

/**
 * tRPC's `getTRPCErrorFromUnknown` without its last step, which copies the cause's `stack` onto the wrapper: reading a
 * stack formats it, and that was a fifth of the host's CPU in a flood of refused requests. No stack leaves the host
 * (`formatError` sends only the remote envelope), so the frames are the same.
 */
function trpcErrorOf(cause: unknown): TRPCError {
  if (cause instanceof TRPCError) return cause;
  if (cause instanceof Error && cause.name === 'TRPCError') return cause as TRPCError;
  return new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause });
}

function withLastEventId(input: unknown, lastEventId: string): unknown {
  if (typeof input === 'object' && input !== null && !Array.isArray(input)) return { ...input, lastEventId };
  return input ?? { lastEventId };
}
