import {
  type Context,
  DeferredAbort,
  type TelemetrySpan,
  extractTelemetryContext,
  untracedSpan,
  withDeferredAbort,
} from '@pi/context';
import { CallTable } from './call-table';
import { quoteForError } from './error-text';
import { RemoteError, toRemoteError } from './errors';
import { isRemoteResult, type AnyExposure } from './exposure';
import type { InteractionBroker } from './interaction-broker';
import {
  DEFAULT_ENDPOINT_LIMITS,
  type EndpointLimits,
  type EndpointOptions,
  type EndpointStats,
  type WatchEnd,
} from './endpoint-options';
import type { CallRequest, CallResponse, InteractionFrame, InteractionReply, Target, WatchFrame } from './protocol';
import { targetLabel } from './protocol';
import { OutboundFrames, type OutboundStream } from './outbound-frames';
import { ReferenceTable } from './references';
import { checkImplementation, type ProvidedService, type ServiceRegistry } from './service-registry';
import { findMethod, parseArguments, parseResult, type MethodSpec } from './validation';
import { watchObject } from './watch';
import { viewerOf, type RemoteViewer } from './viewer';

/**
 * The providing side of one connection: runs calls against the trusted exposures, streams watched
 * objects, and owns the connection's references. Every request gets a fresh server context; nothing a
 * client sends becomes a context value, a telemetry object or a cancellation target of another call.
 */
export class ConnectionEndpoint {
  readonly #registry: ServiceRegistry;
  readonly #context: Context;
  readonly #viewer: RemoteViewer;
  readonly #limits: EndpointLimits;
  readonly #closed = new AbortController();
  readonly #calls = new CallTable();
  /** Each active watch, by its stop function: the reference it streams (if any) and how to tell the client it ended. */
  readonly #watches = new Map<() => void, { readonly ref: string | undefined; readonly end: WatchEnd | undefined }>();
  readonly #references = new ReferenceTable((id) => this.#endWatchesOf(id));
  readonly #clientId: string;
  readonly #outbound = new OutboundFrames();
  #replaceServing: (() => void) | undefined;
  readonly #broker: InteractionBroker | undefined;

  constructor(options: EndpointOptions) {
    this.#registry = options.registry;
    // No signal here: each call gets only its own deferred abort, which `close` aborts, so no call pays for
    // combining two signals.
    this.#context = options.connectionContext;
    this.#viewer = viewerOf(options.connectionContext);
    this.#limits = { ...DEFAULT_ENDPOINT_LIMITS, ...options.limits };
    this.#clientId = options.clientId;
    this.#broker = options.broker;
  }

  get clientId(): string {
    return this.#clientId;
  }

  get stats(): EndpointStats {
    return { activeCalls: this.#calls.size, subscriptions: this.#watches.size, references: this.#references.size };
  }

  hasService(id: string): boolean {
    return this.#registry.exposed(id) !== undefined;
  }

  /**
   * Runs one call. `callId` is the client's own handle for cancelling it, unique among its active calls. The call
   * settles only once the stream frames this connection was handed before its outcome are written, so the caller
   * sees the state changes and events its call made before it sees the result (read-your-writes).
   */
  async call(request: CallRequest, callId: string): Promise<CallResponse> {
    // One async function for the whole call (checks, span, flush), so that its outcome takes one turn to reach the
    // transport instead of one per layer.
    try {
      if (this.#closed.signal.aborted) throw new RemoteError('disconnected', 'The connection is closed');
      // The service as the registry holds it (nothing made per call), or the reference's stand-in.
      const { exposure, implementation: object, id: label } = this.#resolve(request.target);
      const method = findMethod(exposure, request.member);
      if (method === undefined)
        throw new RemoteError('unknown_member', `Unknown member ${quoteForError(request.member)} of ${label}`);
      const args = parseArguments(method, request.args);
      if (this.#calls.has(callId)) throw new RemoteError('invalid_argument', 'Duplicate call id');
      if (this.#calls.size >= this.#limits.maxInFlightCalls) {
        throw new RemoteError(
          'limit_exceeded',
          `At most ${this.#limits.maxInFlightCalls} calls may be in flight per connection`,
        );
      }
      // A method that returns a reference does its work first; refuse it before, not after, when no slot is left.
      if (isRemoteResult(method.result) && this.#references.size >= this.#limits.maxReferences) {
        throw new RemoteError('limit_exceeded', `At most ${this.#limits.maxReferences} references per connection`);
      }
      const abort = new DeferredAbort(this.#context.abortSignal);
      this.#calls.add(callId, abort);
      const parent = extractTelemetryContext(request.trace);
      try {
        // Untraced (no trace to continue, no tracer), the body runs here: no callback and no second async function.
        const untraced = untracedSpan(parent);
        if (untraced !== undefined) {
          const result = await this.#invoke(object, request.member, args, abort, untraced);
          return this.#respond(method, result, abort);
        }
        return await parent.startSpan({ name: `rpc.server ${label}.${request.member}`, kind: 'server' }, async (span) =>
          this.#respond(method, await this.#invoke(object, request.member, args, abort, span), abort),
        );
      } catch (cause) {
        const aborted = abort.aborted || this.#closed.signal.aborted;
        // A service that stops on abort may throw anything; the caller learns why it stopped, not how.
        if (aborted && !(cause instanceof RemoteError && cause.code !== 'internal' && cause.code !== 'cancelled'))
          throw this.#abortError();
        throw toRemoteError(cause);
      } finally {
        this.#calls.delete(callId);
      }
    } finally {
      const flushed = this.#outbound.flushed();
      if (flushed !== undefined) await flushed;
    }
  }

  /**
   * Opens the transport's report on one stream it writes for this connection (a watch), for transports that write
   * stream frames later than they are handed them; see `call`.
   */
  openOutbound(): OutboundStream {
    return this.#outbound.open();
  }

  /** Aborts the server context of one of this connection's own calls; unknown ids are ignored. */
  cancel(callId: string): void {
    this.#calls.get(callId)?.abort(new RemoteError('cancelled', 'Cancelled by the caller'));
  }

  /**
   * Streams an object's snapshot and changes to `emit` until the returned stop runs. A watch of a reference
   * also ends when the reference is released (by the client or by its lifetime policy); `end` hears why.
   */
  watch(target: Target, emit: (frame: WatchFrame) => void, end?: WatchEnd): () => void {
    if (this.#closed.signal.aborted) throw new RemoteError('disconnected', 'The connection is closed');
    const { exposure, implementation: object } = this.#resolve(target);
    if (this.#watches.size >= this.#limits.maxSubscriptions) {
      throw new RemoteError('limit_exceeded', `At most ${this.#limits.maxSubscriptions} subscriptions per connection`);
    }
    const current = { stop: watchObject(exposure, object, emit, this.#viewer) };
    const stop = () => {
      if (!this.#watches.delete(stop)) return;
      stopFollowing();
      current.stop();
    };
    const stopFollowing = this.#followReplacement(target, emit, current, () => {
      stop();
      return end;
    });
    this.#watches.set(stop, { ref: 'ref' in target ? target.ref : undefined, end });
    return stop;
  }

  /**
   * A watch of a service follows its replacement (the host reloaded the plugin that provides it): the old
   * object's stream stops and the new one's starts with a fresh snapshot, which a client takes as it takes one after
   * a gap. A service that went away, or whose new object breaks its contract, ends the watch with why.
   */
  #followReplacement(
    target: Target,
    emit: (frame: WatchFrame) => void,
    current: { stop: () => void },
    ended: () => WatchEnd | undefined,
  ): () => void {
    if (typeof target !== 'object' || target === null || !('service' in target)) return () => undefined;
    return this.#registry.onReplaced(target.service, () => {
      current.stop();
      current.stop = () => undefined;
      try {
        const { exposure, implementation: object } = this.#resolve(target);
        current.stop = watchObject(exposure, object, emit, this.#viewer);
      } catch (error) {
        ended()?.(toRemoteError(error));
      }
    });
  }

  /** This client handles these interactions; requests for them arrive through `emit`. */
  serveInteractions(ids: readonly string[], emit: (frame: InteractionFrame) => void, end?: WatchEnd): () => void {
    if (this.#closed.signal.aborted) throw new RemoteError('disconnected', 'The connection is closed');
    if (this.#broker === undefined) throw new RemoteError('unknown_service', 'This host sends no interactions');
    // A client serves one set of interactions at a time: a new declaration ends the stream of the previous one.
    this.#replaceServing?.();
    if (this.#watches.size >= this.#limits.maxSubscriptions) {
      throw new RemoteError('limit_exceeded', `At most ${this.#limits.maxSubscriptions} subscriptions per connection`);
    }
    const unserve = this.#broker.serve(this.#clientId, ids, emit);
    const stop = () => {
      if (!this.#watches.delete(stop)) return;
      unserve();
      if (this.#replaceServing === replace) this.#replaceServing = undefined;
    };
    const replace = () => {
      stop();
      end?.(new RemoteError('cancelled', 'Replaced by a newer declaration of handled interactions'));
    };
    this.#watches.set(stop, { ref: undefined, end: undefined });
    this.#replaceServing = replace;
    return stop;
  }

  reply(reply: InteractionReply): void {
    if (this.#broker === undefined) throw new RemoteError('unknown_service', 'This host sends no interactions');
    this.#broker.reply(this.#clientId, reply);
  }

  release(ref: string): void {
    this.#references.get(ref);
    this.#references.release(ref);
  }

  /** The connection ended: abort every active call, end every watch, drop every reference. */
  close(): void {
    if (this.#closed.signal.aborted) return;
    const reason = new RemoteError('disconnected', 'The client disconnected');
    this.#closed.abort(reason);
    for (const abort of this.#calls.aborts()) abort.abort(reason);
    for (const stop of [...this.#watches.keys()]) stop();
    this.#outbound.close();
    this.#references.clear();
    this.#broker?.disconnect(this.#clientId);
  }

  /** Starts the method under the call's own context; what it returns (a promise or a value) is the caller's to await. */
  #invoke(
    object: Record<string, unknown>,
    member: string,
    args: unknown[],
    abort: DeferredAbort,
    span: TelemetrySpan,
  ): unknown {
    const context = withDeferredAbort(abort, this.#context, span);
    // Checked without reading the context's signal, which would make it (see DeferredAbort).
    if (abort.aborted) throw this.#abortError();
    return invoke(object, member, args, context);
  }

  /** The response to a method's result: checked against its contract, or held as a reference. */
  #respond(method: MethodSpec, result: unknown, abort: DeferredAbort): CallResponse {
    if (abort.aborted) throw this.#abortError();
    if (isRemoteResult(method.result)) return this.#reference(method.result.exposure, result);
    const value = parseResult(method, result);
    return value === undefined ? {} : { value };
  }

  #abortError(): RemoteError {
    return this.#closed.signal.aborted
      ? new RemoteError('disconnected', 'The connection closed during the call')
      : new RemoteError('cancelled', 'The call was cancelled');
  }

  #endWatchesOf(ref: string): void {
    for (const [stop, watch] of [...this.#watches]) {
      if (watch.ref !== ref) continue;
      stop();
      watch.end?.(new RemoteError('stale_reference', 'The reference was released'));
    }
  }

  /** What a target names, as a provided service (a reference's `id` is its label, `ref`). */
  #resolve(target: Target): ProvidedService {
    if (typeof target === 'object' && target !== null && 'ref' in target) {
      const reference = this.#references.get(target.ref);
      return { id: targetLabel(target), exposure: reference.exposure, implementation: reference.object };
    }
    const id = typeof target === 'object' && target !== null ? (target as { service?: unknown }).service : undefined;
    const service = typeof id === 'string' ? this.#registry.exposed(id) : undefined;
    if (service === undefined) throw new RemoteError('unknown_service', `Unknown service ${quoteForError(id)}`);
    return service;
  }

  #reference(exposure: AnyExposure, result: unknown): CallResponse {
    if (!matchesExposure(exposure, result)) {
      throw new RemoteError('invalid_result', 'A remote result must be an object that implements its exposure');
    }
    if (this.#references.size >= this.#limits.maxReferences) {
      throw new RemoteError('limit_exceeded', `At most ${this.#limits.maxReferences} references per connection`);
    }
    return { ref: this.#references.add(exposure, result).id };
  }
}

/** The same check a provided service gets at registration, for objects that only appear as results. */
function matchesExposure(exposure: AnyExposure, result: unknown): result is Record<string, unknown> {
  try {
    checkImplementation({ id: 'reference', exposure }, result);
    return true;
  } catch {
    return false;
  }
}

/** Calls the method; its caller awaits what it returns (a promise or a value), so this adds no promise of its own. */
function invoke(object: Record<string, unknown>, member: string, args: unknown[], context: Context): unknown {
  const method = object[member] as (...values: unknown[]) => unknown;
  // Most methods take one or two arguments: passed as they are, since pushing the context onto an array made to their
  // length would grow it (~150 bytes a call).
  if (args.length === 1) return method.call(object, args[0], context);
  if (args.length === 2) return method.call(object, args[0], args[1], context);
  // `args` is this call's own copy (parseArguments made it), so the context can go at its end.
  args.push(context);
  return method.apply(object, args);
}
