import { BACKGROUND_CONTEXT, withContextValue } from '@pi/context';
import type { ConnectionState, RemoteChannel, WatchObserver } from '../channel';
import { CLIENT_ID } from '../context-keys';
import { ConnectionEndpoint } from '../endpoint';
import { RemoteError, toRemoteError } from '../errors';
import type { InteractionBroker } from '../interaction-broker';
import type { CallRequest, CallResponse, InteractionFrame, InteractionReply, Target } from '../protocol';
import type { ServiceRegistry } from '../service-registry';
import { createRemoteState } from '../state';

/** What crosses a wire: JSON text, so nothing but JSON survives and no object is shared between the sides. */
function wire<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/**
 * A RemoteChannel straight onto a ConnectionEndpoint in the same process, for this library's unit tests:
 * every message is copied through JSON and delivered on a later microtask, as a transport would.
 */
export class InMemoryChannel implements RemoteChannel {
  readonly connection = createRemoteState<ConnectionState>({ status: 'connected', epoch: 1 });
  readonly endpoint: ConnectionEndpoint;
  /** Every watch the client opened, so tests can count or misdeliver frames. */
  readonly watches: Array<{ readonly target: Target; readonly observer: WatchObserver; stopped: boolean }> = [];
  #nextCall = 0;

  constructor(options: { registry: ServiceRegistry; broker?: InteractionBroker; clientId?: string }) {
    const clientId = options.clientId ?? 'in-memory';
    this.endpoint = new ConnectionEndpoint({
      registry: options.registry,
      broker: options.broker,
      clientId,
      connectionContext: withContextValue(CLIENT_ID, clientId, BACKGROUND_CONTEXT),
    });
  }

  async call(request: CallRequest, signal: AbortSignal | undefined): Promise<CallResponse> {
    if (signal?.aborted) throw new RemoteError('cancelled', 'The call was cancelled before it was sent');
    const callId = String(++this.#nextCall);
    const onAbort = () => this.endpoint.cancel(callId);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return wire(await this.endpoint.call(wire(request), callId));
    } catch (error) {
      throw RemoteError.fromEnvelope(wire(toRemoteError(error).toEnvelope()));
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  watch(target: Target, observer: WatchObserver): () => void {
    const watch = { target, observer, stopped: false };
    this.watches.push(watch);
    try {
      const stop = this.endpoint.watch(
        wire(target),
        (frame) => queueMicrotask(() => watch.stopped || observer.next(wire(frame))),
        (error) => queueMicrotask(() => observer.error(error.toEnvelope())),
      );
      return () => {
        watch.stopped = true;
        stop();
      };
    } catch (error) {
      queueMicrotask(() => observer.error(toRemoteError(error).toEnvelope()));
      return () => undefined;
    }
  }

  async release(ref: string): Promise<void> {
    try {
      this.endpoint.release(ref);
    } catch (error) {
      throw toRemoteError(error);
    }
  }

  serveInteractions(ids: readonly string[], onFrame: (frame: InteractionFrame) => void): () => void {
    return this.endpoint.serveInteractions(ids, (frame) => queueMicrotask(() => onFrame(wire(frame))));
  }

  async reply(reply: InteractionReply): Promise<void> {
    this.endpoint.reply(wire(reply));
  }

  /** The connection drops: the endpoint closes and the client sees `disconnected`. */
  disconnect(): void {
    this.endpoint.close();
    this.connection.set(
      { status: 'disconnected', reason: { code: 'disconnected', message: 'dropped' }, retrying: false },
      BACKGROUND_CONTEXT,
    );
  }

  get activeWatches(): number {
    return this.watches.filter((watch) => !watch.stopped).length;
  }
}
