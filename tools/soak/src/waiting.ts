import { setTimeout as sleep } from 'node:timers/promises';

/** Polls `condition` every `everyMs` until it holds (true) or `timeoutMs` passed (false). */
export async function until(
  condition: () => boolean | Promise<boolean>,
  timeoutMs: number,
  everyMs = 50,
): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (await condition()) return true;
    if (performance.now() >= deadline) return false;
    await sleep(everyMs);
  }
}

/** `until`, for a condition the row cannot go on without: rejects with `what` when it does not hold in time. */
export async function waitFor(
  what: string,
  condition: () => boolean | Promise<boolean>,
  timeoutMs: number,
): Promise<void> {
  if (!(await until(condition, timeoutMs))) throw new Error(`${what} (waited ${Math.round(timeoutMs / 1000)} s)`);
}
