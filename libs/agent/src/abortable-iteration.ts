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
  // Settles the step being waited for as aborted. Each step is its own promise, settled by the item or by the
  // abort, rather than a race against one long-lived abort promise, which would keep a reaction for every item of
  // a streamed answer until the run ended.
  let abortStep: (aborted: 'aborted') => void = () => undefined;
  const onAbort = () => abortStep('aborted');
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      if (signal.aborted) {
        closeQuietly(iterator);
        return 'aborted';
      }
      const step = await new Promise<IteratorResult<T> | 'aborted'>((resolve, reject) => {
        abortStep = resolve;
        // If abort wins, this step may still reject later: `reject` then does nothing, and nothing goes unhandled.
        iterator.next().then(resolve, reject);
      });
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
    signal.removeEventListener('abort', onAbort);
  }
}

function closeQuietly(iterator: AsyncIterator<unknown>): void {
  void Promise.resolve()
    .then(() => iterator.return?.())
    .catch(() => undefined);
}
