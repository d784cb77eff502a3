import { BACKGROUND_CONTEXT, type TraceCarrier } from '@pi/context';
import { createRemoteState, type ConnectionState, type RemoteErrorEnvelope, type RemoteState } from '@pi/remote';
import {
  connectionParamsText,
  operationText,
  readServerFrame,
  subscriptionStopText,
  untransformed,
  untransformedData,
} from './client-frames';
import { compactCallText } from './compact-calls';
import { closeReason, disconnectedShape } from './connection-loss';
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
import type { Operation, OperationHandlers } from './rpc-operation';
import { CLOSE_CODES, type SocketFactory, type WireSocket } from './wire-socket';

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
        this.#socket?.send(subscriptionStopText(id));
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
        socket.send(connectionParamsText(params));
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

  #send(id: number, active: Active): void {
    active.sent = true;
    this.#socket?.send(operationText(id, active.op));
  }

  #receive(socket: WireSocket, data: string): void {
    const frame = readServerFrame(data);
    switch (frame.kind) {
      case 'ping':
        return socket.send('PONG');
      case 'compactReply':
        return this.#answered(frame.reply);
      case 'reconnect':
        return socket.close(CLOSE_CODES.goingAway, 'server asked to reconnect');
      case 'refused':
        this.#lastError = frame.error.data?.remote ?? { code: 'not_authorized', message: String(frame.error.message) };
        return;
      case 'failed': {
        const active = this.#active.get(frame.id);
        if (active === undefined) return;
        this.#active.delete(frame.id);
        return active.handlers.error(untransformed(frame.error));
      }
      case 'result':
        return this.#result(frame.id, frame.type, frame.data);
      case 'ignored':
        return;
    }
  }

  #result(id: number, type: string | undefined, data: unknown): void {
    const active = this.#active.get(id);
    if (active === undefined) return;
    switch (type) {
      case 'started':
        return active.handlers.started?.();
      case 'stopped':
        this.#active.delete(id);
        return active.handlers.complete();
      default:
        active.handlers.data(data);
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
