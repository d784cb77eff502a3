import type { Timers } from './input/input-decoder';

/** A hand-driven clock for the input decoder's Esc timeout: nothing fires until `advance`. */
export interface ManualTimers {
  readonly timers: Timers;
  /** Moves time forward, firing every timer that falls due, in order. */
  advance(ms: number): void;
  /** Timers set and not yet fired or cleared. */
  readonly pendingCount: number;
}

export function manualTimers(): ManualTimers {
  let now = 0;
  let nextId = 1;
  const pending = new Map<number, { at: number; callback: () => void }>();
  return {
    timers: {
      set(callback, ms) {
        const id = nextId++;
        pending.set(id, { at: now + ms, callback });
        return id;
      },
      clear(handle) {
        pending.delete(handle as number);
      },
    },
    advance(ms) {
      const until = now + ms;
      for (;;) {
        const due = [...pending.entries()].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
        if (due === undefined) break;
        pending.delete(due[0]);
        now = due[1].at;
        due[1].callback();
      }
      now = until;
    },
    get pendingCount() {
      return pending.size;
    },
  };
}
