import { BACKGROUND_CONTEXT, type Context, withTelemetryContext } from '@pi/context';
import { untilAborted } from './abortable';
import type { ConnectionState, RemoteChannel } from './channel';
import { RemoteObject } from './remote-object';
import type { RemoteState } from './state-types';
import type { RemoteService } from './tokens';

/** One consumer's hold on a remote service; the shared proxy lives while any lease does. */
export interface Lease<T> {
  readonly service: T;
  release(): void;
}

interface Shared {
  readonly object: RemoteObject;
  readonly ready: Promise<void>;
  holders: number;
}

/**
 * Remote `use` for one connection: demand-driven and shared. Concurrent consumers of a token get one
 * proxy, one replica and one subscription, which ends when the last lease is released.
 */
export class RemoteConsumer {
  readonly #channel: RemoteChannel;
  readonly #shared = new Map<string, Shared>();

  constructor(channel: RemoteChannel) {
    this.#channel = channel;
  }

  get connection(): RemoteState<ConnectionState> {
    return this.#channel.connection;
  }

  /** The number of services with a live subscription, for tests and diagnostics. */
  get activeServices(): number {
    return this.#shared.size;
  }

  /**
   * A lease on the shared proxy, hydrated on first demand. The shared subscription hydrates under the first
   * caller's trace but not its signal: one consumer giving up cancels only its own wait, never the others'.
   */
  async acquire<T>(token: RemoteService<T>, context: Context = BACKGROUND_CONTEXT): Promise<Lease<T>> {
    let shared = this.#shared.get(token.id);
    if (shared === undefined) {
      const object = new RemoteObject(this.#channel, { service: token.id }, token.exposure);
      const created: Shared = {
        object,
        ready: object.hydrate(withTelemetryContext(context.telemetryContext, BACKGROUND_CONTEXT)),
        holders: 0,
      };
      shared = created;
      this.#shared.set(token.id, created);
      created.ready.catch(() => {
        if (this.#shared.get(token.id) === created) this.#shared.delete(token.id);
      });
      // A watch that ends later (the service is gone after a reconnect) must not leave a dead proxy to share:
      // the next acquire hydrates anew; current holders keep their last values.
      object.onEnd(() => {
        if (this.#shared.get(token.id) === created) this.#shared.delete(token.id);
      });
    }
    const holder = shared;
    holder.holders += 1;
    try {
      await untilAborted(holder.ready, context.abortSignal);
    } catch (error) {
      this.#drop(token.id, holder);
      throw error;
    }
    let released = false;
    return {
      service: holder.object.proxy as T,
      release: () => {
        if (released) return;
        released = true;
        this.#drop(token.id, holder);
      },
    };
  }

  /** One holder fewer; the last one out ends the subscription. */
  #drop(id: string, holder: Shared): void {
    holder.holders -= 1;
    if (holder.holders === 0 && this.#shared.get(id) === holder) {
      this.#shared.delete(id);
      holder.object.stop();
    }
  }

  /** Every subscription ends; proxies keep their last values as stale data. */
  releaseAll(): void {
    for (const shared of this.#shared.values()) shared.object.stop();
    this.#shared.clear();
  }
}
