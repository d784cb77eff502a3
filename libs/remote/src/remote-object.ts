import {
  BACKGROUND_CONTEXT,
  type Context,
  type SpanOptions,
  type TelemetryContext,
  type TraceCarrier,
  isContext,
  untracedSpan,
  withTelemetryContext,
} from '@pi/context';
import type { RemoteChannel } from './channel';
import { untilAborted } from './abortable';
import { RemoteError, type RemoteErrorEnvelope } from './errors';
import { hasStreams, isRemoteResult, type AnyExposure, type Schema } from './exposure';
import { jsonEquals, type JsonValue } from '@pi/json';
import type { CallResponse, Target, WatchFrame } from './protocol';
import { targetLabel } from './protocol';
import { ReplicaEvents, ReplicaState } from './replica';
import { parseArgument, parseValue, type MethodSpec } from './validation';

const objects = new WeakMap<object, RemoteObject>();

/** The carrier of an untraced call, shared: a carrier is only read, to copy its fields into a frame. */
const NO_TRACE: TraceCarrier = Object.freeze({});

/**
 * The consuming side of one remote object (a service or a reference): a typed proxy whose methods call
 * over the channel and whose state and events are replicas fed by one watch.
 */
export class RemoteObject {
  readonly proxy: Record<string, unknown>;
  readonly #channel: RemoteChannel;
  readonly #target: Target;
  readonly #exposure: AnyExposure;
  readonly #label: string;
  readonly #states = new Map<string, ReplicaState<JsonValue>>();
  readonly #events = new Map<string, ReplicaEvents<JsonValue>>();
  #stopWatch: (() => void) | undefined;
  #lastSeq = -1;
  #hydration: TelemetryContext | undefined;
  readonly #endListeners = new Set<(error: RemoteError) => void>();

  constructor(channel: RemoteChannel, target: Target, exposure: AnyExposure) {
    this.#channel = channel;
    this.#target = target;
    this.#exposure = exposure;
    this.#label = 'service' in target ? target.service : targetLabel(target);
    this.proxy = this.#createProxy();
    objects.set(this.proxy, this);
  }

  static of(proxy: object): RemoteObject | undefined {
    return objects.get(proxy);
  }

  /**
   * Starts the watch and resolves once the first snapshot is in: from then on `.value` is readable. The
   * context's signal can cancel only the hydration itself; aborting it afterwards leaves the watch running.
   */
  hydrate(context: Context): Promise<void> {
    return context.telemetryContext.startSpan({ name: `rpc.hydrate ${this.#label}`, kind: 'client' }, (span) => {
      this.#hydration = span;
      const hydrated = new Promise<void>((resolve, reject) => {
        this.#stopWatch = this.#channel.watch(this.#target, {
          next: (frame) => {
            try {
              if (this.#receive(frame)) resolve();
            } catch (error) {
              reject(error);
              this.stop();
            }
          },
          error: (envelope: RemoteErrorEnvelope) => {
            const error = RemoteError.fromEnvelope(envelope);
            reject(error);
            // After hydration a rejection reaches nobody: say so, so holders stop handing out a frozen proxy.
            this.#stopWatch = undefined;
            for (const listener of [...this.#endListeners]) listener(error);
          },
        });
      });
      return untilAborted(hydrated, context.abortSignal, () => this.stop());
    });
  }

  /** Called when the watch ends for good (the service went away, the reference was released). */
  onEnd(listener: (error: RemoteError) => void): () => void {
    this.#endListeners.add(listener);
    return () => this.#endListeners.delete(listener);
  }

  /** Tells the providing host to drop a reference; a service has nothing to release. */
  async release(): Promise<void> {
    if ('ref' in this.#target) await this.#channel.release(this.#target.ref);
  }

  stop(): void {
    const stop = this.#stopWatch;
    this.#stopWatch = undefined;
    stop?.();
  }

  /** Returns true for the first snapshot. */
  #receive(frame: WatchFrame): boolean {
    if (frame.kind === 'snapshot') return this.#receiveSnapshot(frame);
    if (frame.seq !== this.#lastSeq + 1) {
      this.#resubscribe();
      return false;
    }
    this.#lastSeq = frame.seq;
    if (frame.kind === 'state') {
      const schema = this.#exposure.state[frame.cell];
      const replica = this.#states.get(frame.cell);
      if (schema === undefined || replica === undefined || frame.revision <= replica.revision) return false;
      const update = checkedUpdate(schema, frame.value, `$.${frame.cell}`);
      if (update !== undefined) replica.apply(update.value, frame.revision, frame.trace);
    } else {
      const schema = this.#exposure.events[frame.stream];
      const events = this.#events.get(frame.stream);
      if (schema === undefined || events === undefined) return false;
      const event = checkedUpdate(schema, frame.event, `$.${frame.stream}`);
      if (event !== undefined) events.deliver(event.value, frame.trace);
    }
    return false;
  }

  #receiveSnapshot(frame: Extract<WatchFrame, { kind: 'snapshot' }>): boolean {
    const first = this.#lastSeq === -1;
    this.#lastSeq = frame.seq;
    for (const [cell, schema] of Object.entries(this.#exposure.state)) {
      const snapshot = frame.state[cell];
      if (snapshot === undefined) throw new RemoteError('invalid_result', `The snapshot lacks state "${cell}"`);
      const value = parseValue(schema, snapshot.value, `$.${cell}`, 'invalid_result') as JsonValue;
      const replica = this.#states.get(cell);
      if (replica === undefined) {
        this.#states.set(cell, new ReplicaState(value, snapshot.revision, () => this.#hydrationContext()));
      } else {
        replica.replace(value, snapshot.revision, !jsonEquals(replica.value, value));
      }
    }
    return first;
  }

  /** A gap in sequence numbers means frames were lost: start over from a fresh snapshot. */
  #resubscribe(): void {
    this.stop();
    this.#lastSeq = -1;
    void this.hydrate(BACKGROUND_CONTEXT).catch(() => undefined);
  }

  #hydrationContext(): Context {
    return this.#hydration === undefined
      ? BACKGROUND_CONTEXT
      : withTelemetryContext(this.#hydration, BACKGROUND_CONTEXT);
  }

  #createProxy(): Record<string, unknown> {
    const proxy: Record<string, unknown> = Object.create(null);
    for (const [member, method] of Object.entries(this.#exposure.methods)) {
      const call: ProxyMethod = {
        member,
        method,
        label: `${this.#label}.${member}`,
        span: Object.freeze({ name: `rpc.client ${this.#label}.${member}`, kind: 'client' }),
      };
      proxy[member] = (...args: unknown[]) => this.#call(call, args);
    }
    for (const cell of Object.keys(this.#exposure.state)) {
      Object.defineProperty(proxy, cell, { enumerable: true, get: () => this.#replica(cell) });
    }
    for (const stream of Object.keys(this.#exposure.events)) {
      const events = new ReplicaEvents<JsonValue>();
      this.#events.set(stream, events);
      proxy[stream] = events;
    }
    return Object.freeze(proxy);
  }

  #replica(cell: string): ReplicaState<JsonValue> {
    const replica = this.#states.get(cell);
    if (replica === undefined) throw new Error(`State "${cell}" is read before the object was hydrated`);
    return replica;
  }

  /**
   * Not async: `#send`'s promise is the call's, so a reply reaches the caller through one promise of ours and the
   * channel's. A refusal before anything is sent is a rejection too, never a throw.
   */
  #call(call: ProxyMethod, args: unknown[]): Promise<unknown> {
    const { method } = call;
    try {
      const context = callContext(args, method.args.length, call.label);
      if (context.abortSignal?.aborted) throw new RemoteError('cancelled', 'The call was cancelled before it was sent');
      const json = method.args.map((schema, index) =>
        parseArgument(schema, args[index], index, 'sender'),
      ) as JsonValue[];
      // Untraced (no trace to continue, no tracer), the call runs here: no span callback, and the empty carrier.
      if (untracedSpan(context.telemetryContext) !== undefined) return this.#send(call, json, context, NO_TRACE);
      return context.telemetryContext.startSpan(call.span, (span) => this.#send(call, json, context, span.inject()));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Sends a checked call and reads its result: checked against the contract, or a reference's proxy. */
  async #send(call: ProxyMethod, json: JsonValue[], context: Context, trace: TraceCarrier): Promise<unknown> {
    const { member, method } = call;
    const request = { target: this.#target, member, args: json, trace };
    const response = await this.#channel.call(request, context.abortSignal);
    // The result was decoded from the reply for this call alone: an unchanged one is handed on itself.
    if (!isRemoteResult(method.result))
      return parseValue(method.result, response.value, '$.result', 'invalid_result', 'frame');
    return await this.#reference(method.result.exposure as AnyExposure, response, context);
  }

  /** A result that crosses as a reference: its proxy, hydrated first when it has state or events. */
  async #reference(exposure: AnyExposure, response: CallResponse, context: Context): Promise<unknown> {
    if (typeof response.ref !== 'string') throw new RemoteError('invalid_result', 'Expected a remote reference');
    const reference = new RemoteObject(this.#channel, { ref: response.ref }, exposure);
    if (hasStreams(reference.#exposure)) {
      // A reference this caller never receives would be held until disconnect: hand it back at once.
      await reference.hydrate(context).catch(async (error: unknown) => {
        reference.stop();
        await reference.release().catch(() => undefined);
        throw error;
      });
    }
    return reference.proxy;
  }
}

/** A method of the proxy, with what each of its calls would otherwise build again. */
interface ProxyMethod {
  readonly member: string;
  readonly method: MethodSpec;
  /** `service.member`, for errors. */
  readonly label: string;
  readonly span: SpanOptions;
}

/**
 * An update that breaks the contract is dropped and reported: it must not end the watch, which would
 * silently freeze every replica of the object.
 */
function checkedUpdate(schema: Schema<unknown>, value: unknown, path: string): { value: JsonValue } | undefined {
  try {
    return { value: parseValue(schema, value, path, 'invalid_result') as JsonValue };
  } catch (error) {
    process.emitWarning(
      `Dropped an update that breaks its contract: ${error instanceof Error ? error.message : String(error)}`,
      {
        code: 'PI_CONTRACT_VIOLATION',
      },
    );
    return undefined;
  }
}

/**
 * The Context sits right after the JSON arguments and is never serialized. Too many arguments (a value where the
 * Context belongs) is the caller's `invalid_argument`, refused before anything is sent.
 */
function callContext(args: unknown[], position: number, label: string): Context {
  const candidate = args[position];
  if (args.length > position + 1 || (candidate !== undefined && !isContext(candidate))) {
    throw new RemoteError('invalid_argument', `${label} takes ${position} argument(s) and then a Context`, {
      reason: 'arity',
    });
  }
  return candidate === undefined ? BACKGROUND_CONTEXT : candidate;
}

/** Releases a remote reference proxy: its watch stops and the providing host drops the object. */
export async function releaseRemote(proxy: object): Promise<void> {
  const object = RemoteObject.of(proxy);
  if (object === undefined) throw new TypeError('Not a remote reference');
  object.stop();
  await object.release();
}
