import superjson from 'superjson';
import { BACKGROUND_CONTEXT, type TraceCarrier } from '@pi/context';
import { createRemoteState, type ConnectionState, type RemoteErrorEnvelope, type RemoteState } from '@pi/remote';
import { compactCallText } from './compact-calls';
import {
  PROTOCOL_VERSION,
  VERSION_MISMATCH,
  protocolMismatch,
  readHelloAnswer,
  speaksCompactCalls,
  type HelloAnswer,
} from './hello';
import { Heartbeat, heartbeatWindow, type HeartbeatWindow } from './heartbeat';
import { backoffDelay, type ReconnectPolicy } from './reconnect';
import { clientErrorShape } from './trpc-error-codes';
import { CLOSE_CODES, type SocketFactory, type WireSocket } from './wire-socket';

/** tRPC's error shape as it arrives (after the transformer), with our envelope in `data.remote`. */
export interface ErrorShape {
  readonly code: number;
  readonly message: string;
  readonly data?: {
    readonly remote?: RemoteErrorEnvelope;
    /** tRPC's code and HTTP status of `remote.code` (see `clientErrorShape`). */
    readonly code?: string;
    readonly httpStatus?: number;
  };
}

export interface Operation {
  readonly type: 'query' | 'mutation' | 'subscription';
  readonly path: string;
  /** Already transformed by the link. */
  readonly input: unknown;
  /** A persistent subscription is sent again after every reconnect; any other operation ends with the socket. */
  readonly persistent: boolean;
}

export interface OperationHandlers {
  data(data: unknown): void;
  started?(): void;
  error(shape: ErrorShape): void;
  complete(): void;
  /** The reply to a call sent as a compact call (`RpcConnection.call`), read by `compactOutcome`. */
  answered?(reply: readonly unknown[]): void;
}

/** What a compact call stands for, as far as a drop is concerned: a mutation, never sent again. */
const CALL_OPERATION: Operation = { type: 'mutation', path: '', input: undefined, persistent: false };

interface Active {
  readonly op: Operation;
  readonly handlers: OperationHandlers;
  sent: boolean;
}

type SentParams = Readonly<Record<string, string>>;
/** The params a client sends first: fixed, or read before every attempt. */
export type ConnectionParamsSource = SentParams | (() => SentParams | Promise<SentParams>);

export interface RpcConnectionOptions {
  readonly socketFactory: SocketFactory;
  /** Sent as tRPC connection params in the first frame (the token lives here, never in a URL). */
  /** Or a function read before every attempt, for credentials that change while the client lives (a session
   *  restarted with a new token): a refusal then ends the connection only when the same params are refused twice. */
  readonly connectionParams: ConnectionParamsSource;
  readonly reconnect?: ReconnectPolicy | false;
  /** How long the host may stay silent before the connection is declared dead (default `DEFAULT_HEARTBEAT`). */
  readonly heartbeat?: HeartbeatWindow | false;
  /**
   * Checks what the host says it runs, after the protocol matched: a line refuses the host (`version_mismatch`, no
   * retry), null accepts it. For example the plugin API a presentation was built for.
   */
  readonly acceptHost?: (hello: HelloAnswer) => string | null;
  /** The protocol this client declares (tests pretend to be another build); default `PROTOCOL_VERSION`. */
  readonly protocol?: string;
}

const HELLO_PATH = '$rpc.hello';

/**
 * The client end of tRPC's WebSocket protocol, written for pi's call path: each operation is sent the moment
 * it is made (no batching timer), calls made while disconnected fail at once with `disconnected`, calls in
 * flight when the socket drops fail with `disconnected` and are never replayed, and persistent
 * subscriptions are sent again after a reconnect, which is retried with backoff. A host that goes silent
 * (stopped, hung) is found by the heartbeat and treated like a drop.
 */
export class RpcConnection {
  readonly state = createRemoteState<ConnectionState>({ status: 'connecting', attempt: 1 });
  readonly #options: RpcConnectionOptions;
  readonly #heartbeatWindow: HeartbeatWindow | false;
  readonly #active = new Map<number, Active>();
  #socket: WireSocket | undefined;
  #nextId = 1;
  #attempt = 0;
  #epoch = 0;
  #closed = false;
  #lastError: RemoteErrorEnvelope | undefined;
  /** The params of the current attempt, and the ones refused last (dynamic params get one more try). */
  #sentParams: string | undefined;
  #refusedParams: string | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #heartbeat: Heartbeat | undefined;
  #host: HelloAnswer | undefined;
  #compactCalls = false;

  constructor(options: RpcConnectionOptions) {
    this.#options = options;
    this.#heartbeatWindow = heartbeatWindow(options.heartbeat);
    this.#open();
  }

  get connection(): RemoteState<ConnectionState> {
    return this.state;
  }

  /** The silence allowed before the host is declared dead, for a UI to show; `false` when not watched. */
  get heartbeat(): HeartbeatWindow | false {
    return this.#heartbeatWindow;
  }

  /** What the host said in its last hello answer (its protocol, plugin API and plugins); undefined before one. */
  get host(): HelloAnswer | undefined {
    return this.#host;
  }

  /** Whether the connected host reads compact calls (protocol 1.2 or later): `call` may be used. */
  get compactCalls(): boolean {
    return this.#compactCalls;
  }

  get activeOperations(): number {
    return this.#active.size;
  }

  /** Starts one operation; the returned function ends it (and stops a subscription on the server). */
  request(op: Operation, handlers: OperationHandlers): () => void {
    const id = this.#nextId++;
    const state = this.state.value;
    const connected = state.status === 'connected';
    // A persistent subscription waits for the next connection, unless there will be none (closed, refused).
    const waits = op.type === 'subscription' && op.persistent && !this.#ended();
    if (!connected && !waits && op.path !== HELLO_PATH) return this.#refuse(handlers);
    const active: Active = { op, handlers, sent: false };
    this.#active.set(id, active);
    if (connected || op.path === HELLO_PATH) this.#send(id, active);
    return () => {
      if (!this.#active.delete(id)) return;
      if (op.type === 'subscription' && active.sent && this.state.value.status === 'connected') {
        this.#write({ id, method: 'subscription.stop' });
      }
    };
  }

  /**
   * Starts one service call as a compact call (compact-calls.ts): `path` is `<service>.<method>`, the reply goes to
   * `handlers.answered`, a drop to `handlers.error`. Only while connected to a host that reads them (`compactCalls`).
   */
  call(path: string, args: readonly unknown[], callId: string, trace: TraceCarrier, handlers: OperationHandlers) {
    if (this.state.value.status !== 'connected') return this.#refuse(handlers);
    const id = this.#nextId++;
    this.#active.set(id, { op: CALL_OPERATION, handlers, sent: true });
    this.#socket?.send(compactCallText(id, path, args, callId, trace));
    return () => void this.#active.delete(id);
  }

  /** An operation made while not connected fails at once, with why the connection is down. */
  #refuse(handlers: OperationHandlers): () => void {
    const state = this.state.value;
    const reason = state.status === 'disconnected' ? state.reason : this.#lastError;
    queueMicrotask(() => handlers.error(disconnectedShape(reason)));
    return () => undefined;
  }

  /** Closes for good: no reconnect, every operation fails with `disconnected`. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#heartbeat?.stop();
    this.#socket?.close(CLOSE_CODES.normal, 'client closed');
    this.#drop({ code: 'disconnected', message: 'The client closed the connection' }, false);
  }

  /** No further connection will be attempted. */
  #ended(): boolean {
    const state = this.state.value;
    return this.#closed || (state.status === 'disconnected' && !state.retrying);
  }

  #open(): void {
    this.#attempt += 1;
    // The first attempt starts in `connecting`; every later one (the first after a drop too) is announced.
    const current = this.state.value;
    if (current.status !== 'connecting' || current.attempt !== this.#attempt) {
      this.state.set({ status: 'connecting', attempt: this.#attempt }, BACKGROUND_CONTEXT);
    }
    const socket = this.#options.socketFactory();
    this.#socket = socket;
    socket.onOpen(() => {
      if (this.#socket !== socket) return;
      this.#watch(socket);
      const send = (params: SentParams) => {
        if (this.#socket !== socket) return;
        this.#sentParams = JSON.stringify(params);
        socket.send(JSON.stringify({ method: 'connectionParams', data: params }));
        this.#hello(socket);
      };
      const source = this.#options.connectionParams;
      // Fixed params go out in the same turn as the open; a function may read a file first.
      if (typeof source !== 'function') return send(source);
      Promise.resolve()
        .then(source)
        .then(send, () => {
          if (this.#socket === socket) socket.close(CLOSE_CODES.policy, 'no connection params');
        });
    });
    socket.onMessage((data) => {
      if (this.#socket === socket) this.#heartbeat?.heard();
      this.#receive(socket, data);
    });
    socket.onClose((code, reason) => this.#socketClosed(socket, code, reason));
  }

  /**
   * The first call on a socket proves the token was accepted and that both ends speak the same protocol (and, with
   * `acceptHost`, run what the client needs); only then is the connection `connected`.
   */
  #hello(socket: WireSocket): void {
    const protocol = this.#options.protocol ?? PROTOCOL_VERSION;
    this.request(
      { type: 'mutation', path: HELLO_PATH, input: { json: { protocol } }, persistent: false },
      {
        data: (data) => {
          if (this.#socket !== socket) return;
          const answer = readHelloAnswer(untransformedData(data));
          const refusal =
            answer === undefined
              ? 'the host answered the hello with something that is not a pi hello'
              : (protocolMismatch(answer.protocol, protocol) ?? this.#options.acceptHost?.(answer) ?? null);
          if (refusal !== null) {
            this.#lastError = { code: VERSION_MISMATCH, message: refusal };
            return socket.close(CLOSE_CODES.policy, VERSION_MISMATCH);
          }
          this.#host = answer;
          this.#compactCalls = answer !== undefined && speaksCompactCalls(answer.protocol);
          this.#attempt = 0;
          this.#lastError = undefined;
          this.#refusedParams = undefined;
          this.#epoch += 1;
          this.state.set({ status: 'connected', epoch: this.#epoch }, BACKGROUND_CONTEXT);
          for (const [id, active] of this.#active) if (!active.sent) this.#send(id, active);
        },
        error: (shape) => {
          // Only the server's answer on the live socket says why; a drop also fails this call, with nothing to learn.
          if (this.#socket !== socket) return;
          this.#lastError = shape.data?.remote ?? { code: 'not_authorized', message: shape.message };
          socket.close(CLOSE_CODES.policy, 'hello failed');
        },
        complete: () => undefined,
      },
    );
  }

  /** From the socket's opening: a handshake the host never answers is as dead as a call it never answers. */
  #watch(socket: WireSocket): void {
    const window = this.#heartbeatWindow;
    if (window === false) return;
    this.#heartbeat = new Heartbeat(
      window,
      () => socket.send('PING'),
      () => {
        if (this.#socket !== socket) return;
        const silentMs = window.idleMs + window.timeoutMs;
        this.#lost({ code: 'disconnected', message: `The host sent nothing for ${silentMs} ms` });
        // No closing handshake: a stopped host would hold it open (`ws` waits 30 s for the peer's close frame).
        if (socket.terminate !== undefined) socket.terminate();
        else socket.close(CLOSE_CODES.goingAway, 'the host is silent');
      },
    );
  }

  /** The bytes of `JSON.stringify({ id, method, params: { path, input } })`, with only the input stringified. */
  #send(id: number, active: Active): void {
    active.sent = true;
    const { type, path, input } = active.op;
    const inputText = input === undefined ? undefined : JSON.stringify(input);
    const params = inputText === undefined ? '' : `,"input":${inputText}`;
    this.#socket?.send(`{"id":${id},"method":"${type}","params":{"path":${JSON.stringify(path)}${params}}}`);
  }

  #write(message: unknown): void {
    this.#socket?.send(JSON.stringify(message));
  }

  #receive(socket: WireSocket, data: string): void {
    if (data === 'PING') return socket.send('PONG');
    if (data === 'PONG') return;
    let decoded: unknown;
    try {
      decoded = JSON.parse(data);
    } catch {
      return;
    }
    if (typeof decoded !== 'object' || decoded === null) return;
    if (Array.isArray(decoded)) return this.#answered(decoded);
    const message = decoded as {
      id?: unknown;
      result?: { type?: string; data?: unknown };
      error?: ErrorShape;
      method?: string;
    };
    // { id: null, method: 'reconnect' }: the server asks every client to come back, e.g. before a restart.
    if (message.method === 'reconnect') return socket.close(CLOSE_CODES.goingAway, 'server asked to reconnect');
    // { id: null, error }: the connection itself was refused (authentication); the server closes next.
    if (message.id === null && message.error !== undefined) {
      const shape = untransformed(message.error);
      this.#lastError = shape.data?.remote ?? { code: 'not_authorized', message: String(shape.message) };
      return;
    }
    const active = typeof message.id === 'number' ? this.#active.get(message.id) : undefined;
    if (active === undefined) return;
    const id = message.id as number;
    if (message.error !== undefined) {
      this.#active.delete(id);
      return active.handlers.error(untransformed(message.error));
    }
    // { id, result: { type: 'started' | 'data' | 'stopped', data? } }
    switch (message.result?.type) {
      case 'started':
        return active.handlers.started?.();
      case 'stopped':
        this.#active.delete(id);
        return active.handlers.complete();
      default:
        active.handlers.data(message.result?.data);
        if (active.op.type !== 'subscription') {
          this.#active.delete(id);
          active.handlers.complete();
        }
    }
  }

  /** A compact call's reply: `[id, …]`. */
  #answered(reply: readonly unknown[]): void {
    const id = reply[0];
    const active = typeof id === 'number' ? this.#active.get(id) : undefined;
    if (active?.handlers.answered === undefined) return;
    this.#active.delete(id as number);
    active.handlers.answered(reply);
  }

  #socketClosed(socket: WireSocket, code: number, reason: string): void {
    if (this.#socket !== socket || this.#closed) return;
    this.#lost(this.#lastError ?? closeReason(code, reason));
  }

  /** The current socket is gone (closed, or silent past the heartbeat window): fail what it carried, maybe retry. */
  #lost(envelope: RemoteErrorEnvelope): void {
    this.#socket = undefined;
    this.#heartbeat?.stop();
    this.#heartbeat = undefined;
    // A host of another version stays that version: trying again would only say the same thing again.
    const retrying =
      this.#options.reconnect !== false &&
      envelope.code !== VERSION_MISMATCH &&
      (envelope.code !== 'not_authorized' || this.#mayRetryRefusal());
    this.#drop(envelope, retrying);
    if (retrying) {
      this.#timer = setTimeout(() => this.#open(), backoffDelay(this.#attempt, this.#options.reconnect || undefined));
    }
  }

  /** Refused params that may have changed since (read anew each attempt) get one more try; the same ones twice stop. */
  #mayRetryRefusal(): boolean {
    if (typeof this.#options.connectionParams !== 'function') return false;
    if (this.#refusedParams !== undefined && this.#refusedParams === this.#sentParams) return false;
    this.#refusedParams = this.#sentParams;
    return true;
  }

  /** Everything in flight fails now; persistent subscriptions wait, unsent, for the next connection. */
  #drop(reason: RemoteErrorEnvelope, retrying: boolean): void {
    this.state.set({ status: 'disconnected', reason, retrying }, BACKGROUND_CONTEXT);
    for (const [id, active] of [...this.#active]) {
      if (retrying && active.op.type === 'subscription' && active.op.persistent) {
        active.sent = false;
        continue;
      }
      this.#active.delete(id);
      active.handlers.error(disconnectedShape(reason));
    }
  }
}

/** Error shapes the server sends are transformer-encoded (`{ json, meta }`), like results. */
function untransformed(shape: ErrorShape): ErrorShape {
  return typeof shape === 'object' && shape !== null && 'json' in shape ? superjson.deserialize(shape as never) : shape;
}

/** A result's data as it arrives: transformer-encoded (`{ json }`). */
function untransformedData(data: unknown): unknown {
  return typeof data === 'object' && data !== null && 'json' in data ? superjson.deserialize(data as never) : data;
}

function disconnectedShape(reason: RemoteErrorEnvelope | undefined): ErrorShape {
  const refused = reason?.code === 'not_authorized' || reason?.code === VERSION_MISMATCH;
  const remote =
    reason !== undefined && refused ? reason : { code: 'disconnected', message: reason?.message ?? 'Not connected' };
  // A refused token is a refusal before authentication: UNAUTHORIZED, as the host's own refusal frame says.
  return clientErrorShape(remote, remote.code !== 'not_authorized');
}

function closeReason(code: number, reason: string): RemoteErrorEnvelope {
  // The code alone is enough: a client that missed the refusal frame must still stop retrying.
  if (code === CLOSE_CODES.notAuthorized) return { code: 'not_authorized', message: 'The host refused the token' };
  if (code === CLOSE_CODES.tooBig) {
    return { code: 'disconnected', message: 'The connection was closed: a frame exceeded the maximum size' };
  }
  const message = reason === '' ? `The connection closed (code ${code})` : `The connection closed: ${reason}`;
  return { code: 'disconnected', message };
}
