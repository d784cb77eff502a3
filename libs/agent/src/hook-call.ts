import { withAbortSignal, type Context } from '@pi/context';
import { errorMessage } from './error-text';

/** How one plugin hook call ended. `abandoned`: the caller's own signal fired first, and nobody waits any more. */
export type HookOutcome =
  | { kind: 'returned'; value: unknown }
  | { kind: 'failed'; message: string }
  | { kind: 'abandoned' };

/**
 * Calls one plugin hook, isolated: a throw or a rejection is `failed`, and so is a promise still pending at the
 * deadline (the hook's context signal fires then, so the hook can stop its work). A hook that returns at once is
 * used even when `context` is already aborted, so synchronous hooks always apply; waiting on an asynchronous one
 * stops when `context`'s signal fires (`abandoned`, not a failure of the hook). Never rejects.
 */
export async function callHook(
  invoke: (context: Context) => unknown,
  context: Context,
  timeoutMs: number,
): Promise<HookOutcome> {
  const deadline = new AbortController();
  let returned: unknown;
  try {
    returned = invoke(withAbortSignal(deadline.signal, context));
  } catch (error) {
    return { kind: 'failed', message: `threw: ${errorMessage(error)}` };
  }
  if (!isThenable(returned)) return { kind: 'returned', value: returned };
  const outer = context.abortSignal;
  return new Promise<HookOutcome>((resolve) => {
    const finish = (outcome: HookOutcome): void => {
      clearTimeout(timer);
      outer?.removeEventListener('abort', abandon);
      resolve(outcome);
    };
    const abandon = (): void => finish({ kind: 'abandoned' });
    const timer = setTimeout(() => {
      deadline.abort(new Error(`the hook's deadline of ${timeoutMs} ms passed`));
      finish({ kind: 'failed', message: `did not finish within ${formatDuration(timeoutMs)}` });
    }, timeoutMs);
    // Handled before anything else, so a hook rejecting after it was abandoned is never an unhandled rejection.
    Promise.resolve(returned).then(
      (value) => finish({ kind: 'returned', value }),
      (error: unknown) => finish({ kind: 'failed', message: `rejected: ${errorMessage(error)}` }),
    );
    if (outer?.aborted === true) return abandon();
    outer?.addEventListener('abort', abandon, { once: true });
  });
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

function formatDuration(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
