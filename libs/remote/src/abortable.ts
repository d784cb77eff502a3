import { RemoteError } from './errors';

/**
 * Waits for `promise` unless `signal` aborts first, in which case it rejects with `cancelled` and runs
 * `onAbort`. The abort listener lives only while waiting: a long-lived signal that aborts later must not
 * reach back into work that already finished (a hydrated replica, a shared subscription).
 */
export function untilAborted<T>(
  promise: Promise<T>,
  signal: AbortSignal | undefined,
  onAbort: () => void = () => undefined,
): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) {
    onAbort();
    return Promise.reject(new RemoteError('cancelled', 'Cancelled before it finished'));
  }
  return new Promise<T>((resolve, reject) => {
    const abort = () => {
      onAbort();
      reject(new RemoteError('cancelled', 'Cancelled before it finished'));
    };
    signal.addEventListener('abort', abort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', abort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', abort);
        reject(error);
      },
    );
  });
}
