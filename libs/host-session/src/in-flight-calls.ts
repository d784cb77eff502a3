import type { ProvidedService } from '@pi/remote';

/**
 * Counts the calls clients have running in one plugin set's services, so that a reload lets them finish (drain)
 * before it disposes the set they run in: new calls already reach the new set.
 */
export class InFlightCalls {
  #count = 0;
  readonly #idle = new Set<() => void>();

  get count(): number {
    return this.#count;
  }

  /**
   * A served copy of a service whose exposed methods are counted while they run; its state cells and event streams
   * are the implementation's own, so watches see the same objects.
   */
  counted(service: ProvidedService): Record<string, unknown> {
    const { implementation, exposure } = service;
    const copy: Record<string, unknown> = {};
    for (const member of [...Object.keys(exposure.state), ...Object.keys(exposure.events)])
      copy[member] = implementation[member];
    for (const member of Object.keys(exposure.methods)) {
      const method = implementation[member] as (...args: unknown[]) => unknown;
      copy[member] = (...args: unknown[]) => this.#run(() => method.apply(implementation, args));
    }
    return copy;
  }

  /** Resolves once no call runs, or after `ms`; with how many still ran then. */
  async drained(ms: number): Promise<number> {
    if (this.#count === 0) return 0;
    let timer: NodeJS.Timeout | undefined;
    let done: () => void = () => undefined;
    const idle = new Promise<void>((resolve) => (done = resolve));
    this.#idle.add(done);
    await Promise.race([idle, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
    this.#idle.delete(done);
    return this.#count;
  }

  #run(call: () => unknown): unknown {
    this.#count += 1;
    let result: unknown;
    try {
      result = call();
    } catch (error) {
      this.#settle();
      throw error;
    }
    if (result instanceof Promise) return result.finally(() => this.#settle());
    this.#settle();
    return result;
  }

  #settle(): void {
    this.#count -= 1;
    if (this.#count === 0) for (const done of [...this.#idle]) done();
  }
}
