export type IterationEnd = 'finished' | 'stopped' | 'aborted';

/**
 * Feeds each item of `source` to `onItem` until the source ends (`finished`), `onItem` returns false
 * (`stopped`), or `signal` aborts (`aborted`). Abort wins even over a source that ignores its signal and
 * never yields again: we stop waiting on it and ask it to return, without waiting for that either.
 * A source that throws rethrows here, unless the signal aborted first (its throw is then the abort).
 */
export async function iterateUntilAborted<T>(
  source: AsyncIterable<T>,
  signal: AbortSignal,
  onItem: (item: T) => boolean,
): Promise<IterationEnd> {
  if (signal.aborted) return 'aborted';
  const iterator = source[Symbol.asyncIterator]();
  let stopWaiting: () => void = () => undefined;
  const aborted = new Promise<'aborted'>((resolve) => {
    stopWaiting = () => resolve('aborted');
    signal.addEventListener('abort', stopWaiting, { once: true });
  });
  try {
    for (;;) {
      const next = iterator.next();
      // If abort wins the race, this pending step may still reject later; that must not go unhandled.
      next.catch(() => undefined);
      const step = await Promise.race([next, aborted]);
      if (step === 'aborted') {
        closeQuietly(iterator);
        return 'aborted';
      }
      if (step.done === true) return 'finished';
      if (!onItem(step.value)) {
        closeQuietly(iterator);
        return 'stopped';
      }
    }
  } catch (error) {
    if (signal.aborted) return 'aborted';
    throw error;
  } finally {
    signal.removeEventListener('abort', stopWaiting);
  }
}

function closeQuietly(iterator: AsyncIterator<unknown>): void {
  void Promise.resolve()
    .then(() => iterator.return?.())
    .catch(() => undefined);
}
