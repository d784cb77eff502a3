import type { RemoteState } from '@pi/remote';

/** Polls a condition on the event loop (no wall-clock assertion): resolves when it holds, fails after `attempts`
 *  turns (about 20 s by default: generous, because CI runs several suites at once on two cores). */
export async function eventually(condition: () => boolean, attempts = 4000): Promise<void> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, attempt < 50 ? 0 : 5));
  }
  throw new Error('The condition did not hold');
}

/** The next value of a state that satisfies `accept` (the current value counts). */
export function nextValue<T>(state: RemoteState<T>, accept: (value: T) => boolean): Promise<T> {
  return new Promise((resolve) => {
    let done = false;
    // The immediate callback may match before `stop` exists, so unsubscribing waits for a microtask.
    const stop = state.subscribe((value) => {
      if (done || !accept(value)) return;
      done = true;
      queueMicrotask(() => stop());
      resolve(value);
    });
  });
}
