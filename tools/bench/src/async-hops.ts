import { createHook } from 'node:async_hooks';

/**
 * The callbacks one process ran, by kind: every turn a call takes through the event loop's queues. Promise
 * reactions and ticks run before the process returns to the loop; immediates and timers each take a turn of it; I/O
 * callbacks are the socket's reads (and completed writes) that woke it.
 */
export interface AsyncHops {
  readonly promiseReactions: number;
  readonly ticks: number;
  readonly microtasks: number;
  readonly immediates: number;
  readonly timers: number;
  readonly io: number;
  /** Timers armed (a call timeout counts here even when it never fires). */
  readonly timersArmed: number;
}

export const NO_HOPS: AsyncHops = {
  promiseReactions: 0,
  ticks: 0,
  microtasks: 0,
  immediates: 0,
  timers: 0,
  io: 0,
  timersArmed: 0,
};

/** The kind of hop a callback of an async resource of `type` is. */
export function hopKind(type: string): Exclude<keyof AsyncHops, 'timersArmed'> {
  switch (type) {
    case 'PROMISE':
      return 'promiseReactions';
    case 'TickObject':
      return 'ticks';
    case 'Microtask':
      return 'microtasks';
    case 'Immediate':
      return 'immediates';
    case 'Timeout':
      return 'timers';
    default:
      return 'io';
  }
}

/** Counts divided by the calls made while counting, to two decimals. */
export function hopsPerCall(hops: AsyncHops, calls: number): AsyncHops {
  const per = (count: number) => Math.round((count / calls) * 100) / 100;
  return {
    promiseReactions: per(hops.promiseReactions),
    ticks: per(hops.ticks),
    microtasks: per(hops.microtasks),
    immediates: per(hops.immediates),
    timers: per(hops.timers),
    io: per(hops.io),
    timersArmed: per(hops.timersArmed),
  };
}

/**
 * Starts counting this process's callbacks (async_hooks, which slows every promise while on: count, do not time);
 * the returned function stops and reports. Resources made before the start (the sockets) are I/O.
 */
export function countAsyncHops(): () => AsyncHops {
  const types = new Map<number, string>();
  const counts = { ...NO_HOPS };
  const hook = createHook({
    init(id, type) {
      types.set(id, type);
      if (type === 'Timeout') counts.timersArmed += 1;
    },
    before(id) {
      counts[hopKind(types.get(id) ?? 'io')] += 1;
    },
    destroy(id) {
      types.delete(id);
    },
    promiseResolve() {
      // Present so that promise resources are tracked at all.
    },
  });
  hook.enable();
  return () => {
    hook.disable();
    return { ...counts };
  };
}
