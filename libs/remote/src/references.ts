import { randomBytes } from 'node:crypto';
import { RemoteError } from './errors';
import type { AnyExposure } from './exposure';

export interface Reference {
  readonly id: string;
  readonly exposure: AnyExposure;
  readonly object: Record<string, unknown>;
}

/** How long a settled reference stays callable before it is released; see docs/decisions.md. */
export const SETTLED_REFERENCE_GRACE_MS = 60_000;

/**
 * The remote references one connection holds. Ids are unguessable and scoped to the table, so another
 * connection's id, a released id and a made-up id are all the same thing here: `stale_reference`.
 */
export class ReferenceTable {
  readonly #references = new Map<string, Reference>();
  /** Pending lifetime releases by reference id; a release by hand cancels its own, so nothing is held past it. */
  readonly #timers = new Map<string, ReturnType<typeof setTimeout>>();
  readonly #onRelease: (id: string) => void;

  constructor(onRelease: (id: string) => void = () => undefined) {
    this.#onRelease = onRelease;
  }

  get size(): number {
    return this.#references.size;
  }

  add(exposure: AnyExposure, object: Record<string, unknown>): Reference {
    const reference = { id: `ref_${randomBytes(16).toString('base64url')}`, exposure, object };
    this.#references.set(reference.id, reference);
    this.#releaseWhenSettled(reference);
    return reference;
  }

  get(id: unknown): Reference {
    const reference = typeof id === 'string' ? this.#references.get(id) : undefined;
    if (reference === undefined) throw new RemoteError('stale_reference', 'Unknown or released reference');
    return reference;
  }

  release(id: string): boolean {
    clearTimeout(this.#timers.get(id));
    this.#timers.delete(id);
    const existed = this.#references.delete(id);
    if (existed) this.#onRelease(id);
    return existed;
  }

  clear(): void {
    for (const id of [...this.#references.keys()]) this.release(id);
  }

  /** An object that exposes a `settled` promise (a finished job) is released a grace period after it settles. */
  #releaseWhenSettled(reference: Reference): void {
    const settled = (reference.object as { settled?: unknown }).settled;
    if (!(settled instanceof Promise)) return;
    const schedule = () => {
      if (!this.#references.has(reference.id)) return;
      const timer = setTimeout(() => this.release(reference.id), SETTLED_REFERENCE_GRACE_MS);
      timer.unref?.();
      this.#timers.set(reference.id, timer);
    };
    settled.then(schedule, schedule);
  }
}
