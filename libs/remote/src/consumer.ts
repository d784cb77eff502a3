import { BACKGROUND_CONTEXT, type Context } from '@pi/context';
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

  async acquire<T>(token: RemoteService<T>, context: Context = BACKGROUND_CONTEXT): Promise<Lease<T>> {
    let shared = this.#shared.get(token.id);
    if (shared === undefined) {
      const object = new RemoteObject(this.#channel, { service: token.id }, token.exposure);
      const created: Shared = { object, ready: object.hydrate(context), holders: 0 };
      shared = created;
      this.#shared.set(token.id, created);
      created.ready.catch(() => {
        if (this.#shared.get(token.id) === created) this.#shared.delete(token.id);
      });
    }
    shared.holders += 1;
    try {
      await shared.ready;
    } catch (error) {
      shared.holders -= 1;
      throw error;
    }
    const holder = shared;
    let released = false;
    return {
      service: holder.object.proxy as T,
      release: () => {
        if (released) return;
        released = true;
        holder.holders -= 1;
        if (holder.holders === 0 && this.#shared.get(token.id) === holder) {
          this.#shared.delete(token.id);
          holder.object.stop();
        }
      },
    };
  }

  /** Every subscription ends; proxies keep their last values as stale data. */
  releaseAll(): void {
    for (const shared of this.#shared.values()) shared.object.stop();
    this.#shared.clear();
  }
}
