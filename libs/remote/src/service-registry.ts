import { isAuthoritativeEvents } from './events';
import type { AnyExposure } from './exposure';
import { isAuthoritativeState } from './state';
import type { RemoteService, ServiceToken } from './tokens';

/** A provided remote service as the exposure layer sees it: its id, trusted exposure and implementation. */
export interface ProvidedService {
  readonly id: string;
  readonly exposure: AnyExposure;
  readonly implementation: Record<string, unknown>;
}

interface Entry {
  readonly token: ServiceToken<unknown>;
  readonly implementation: unknown;
  /** The implementation `implementation` serves a copy of (`replaceAll`'s `serve`). */
  readonly source?: unknown;
  /** What `exposed` answers for a remote service, made once here rather than on every call. */
  readonly exposed: ProvidedService | undefined;
}

function entryOf(token: ServiceToken<unknown>, implementation: unknown, source?: { readonly of: unknown }): Entry {
  const exposed =
    token.kind === 'remote-service'
      ? Object.freeze({
          id: token.id,
          exposure: (token as RemoteService<unknown>).exposure,
          implementation: implementation as Record<string, unknown>,
        })
      : undefined;
  return source === undefined
    ? { token, implementation, exposed }
    : { token, implementation, source: source.of, exposed };
}

function sourceOf(entry: Entry | undefined): unknown {
  return entry === undefined ? undefined : 'source' in entry ? entry.source : entry.implementation;
}

export class ServiceRegistrationError extends Error {
  override readonly name = 'ServiceRegistrationError';
}

/**
 * The services one host provides. Local `use` returns the real object; only tokens defined with
 * `defineRemoteService` are ever reachable through `exposed`.
 */
export class ServiceRegistry {
  readonly #services = new Map<string, Entry>();
  readonly #replacedListeners = new Map<string, Set<() => void>>();

  /** Registers an implementation; a second provider of the same id is rejected. Returns the remover. */
  provide<T>(token: ServiceToken<T>, implementation: T): () => void {
    if (this.#services.has(token.id)) {
      throw new ServiceRegistrationError(`Service "${token.id}" is already provided`);
    }
    if (token.kind === 'remote-service') checkImplementation(token as RemoteService<unknown>, implementation);
    const entry = entryOf(token as ServiceToken<unknown>, implementation);
    this.#services.set(token.id, entry);
    return () => {
      if (this.#services.get(token.id) === entry) this.#services.delete(token.id);
    };
  }

  /** The process-local object itself (no proxy, no serialization). */
  use<T>(token: ServiceToken<T>): T {
    const entry = this.#services.get(token.id);
    if (entry === undefined || entry.token.kind !== token.kind) {
      throw new ServiceRegistrationError(`Service "${token.id}" is not provided in this process`);
    }
    return entry.implementation as T;
  }

  has<T>(token: ServiceToken<T>): boolean {
    return this.#services.get(token.id)?.token.kind === token.kind;
  }

  /** A remote service by id, for a peer; local services are invisible here. */
  exposed(id: string): ProvidedService | undefined {
    return this.#services.get(id)?.exposed;
  }

  /**
   * Takes on every service of `next` at once, dropping what `next` lacks (a reload of the plugins that provide
   * them), then tells the listeners of each id whose implementation changed or went away. `serve` may stand a
   * copy in for each remote implementation (one that counts calls); a change is judged by the implementation.
   */
  replaceAll(next: ServiceRegistry, serve?: (service: ProvidedService) => Record<string, unknown>): void {
    const previous = new Map(this.#services);
    this.#services.clear();
    for (const [id, entry] of next.#services) {
      const exposed = entry.token.kind === 'remote-service' ? next.exposed(id) : undefined;
      const served = exposed === undefined || serve === undefined ? entry.implementation : serve(exposed);
      this.#services.set(id, entryOf(entry.token, served, { of: entry.implementation }));
    }
    const changed = [...previous]
      .filter(([id, entry]) => sourceOf(this.#services.get(id)) !== sourceOf(entry))
      .map(([id]) => id);
    for (const id of changed) for (const listener of [...(this.#replacedListeners.get(id) ?? [])]) listener();
  }

  /** Hears each `replaceAll` that changed or removed the service `id` (a watch follows it); returns the remover. */
  onReplaced(id: string, listener: () => void): () => void {
    const listeners = this.#replacedListeners.get(id) ?? new Set();
    this.#replacedListeners.set(id, listeners.add(listener));
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.#replacedListeners.get(id) === listeners) this.#replacedListeners.delete(id);
    };
  }

  exposedIds(): string[] {
    return [...this.#services.values()]
      .filter((entry) => entry.token.kind === 'remote-service')
      .map((entry) => entry.token.id);
  }
}

/** Catches a provider that does not match its exposure at registration, not at the first remote call. */
export function checkImplementation(token: { id: string; exposure: AnyExposure }, implementation: unknown): void {
  if (typeof implementation !== 'object' || implementation === null) {
    throw new ServiceRegistrationError(`Service "${token.id}": the implementation must be an object`);
  }
  const members = implementation as Record<string, unknown>;
  for (const method of Object.keys(token.exposure.methods)) {
    if (typeof members[method] !== 'function') {
      throw new ServiceRegistrationError(`Service "${token.id}": method "${method}" is missing`);
    }
  }
  for (const cell of Object.keys(token.exposure.state)) {
    if (!isAuthoritativeState(members[cell])) {
      throw new ServiceRegistrationError(`Service "${token.id}": state "${cell}" must come from createRemoteState`);
    }
  }
  for (const stream of Object.keys(token.exposure.events)) {
    if (!isAuthoritativeEvents(members[stream])) {
      throw new ServiceRegistrationError(`Service "${token.id}": events "${stream}" must come from createRemoteEvents`);
    }
  }
}
