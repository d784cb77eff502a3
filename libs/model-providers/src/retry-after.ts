import { setTimeout as delay } from 'node:timers/promises';
import { abortedError } from './provider-abort';

/**
 * How long a server that answered 429 or 503 may make a turn wait, in total. Only a server that says when
 * (`Retry-After`) is retried; a wait beyond what is left of the budget fails the turn at once instead.
 */
export interface RetryBudget {
  readonly maxRetries: number;
  readonly maxTotalWaitMs: number;
}

export const DEFAULT_RETRY_BUDGET: RetryBudget = Object.freeze({ maxRetries: 2, maxTotalWaitMs: 30_000 });

/** The statuses that mean "not now" rather than "not this request" (529: Anthropic's "overloaded"). */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 503 || status === 529;
}

/**
 * How long to wait before retry number `retry` (from 0) of a server that said it is overloaded (529) without a
 * Retry-After: overload passes in seconds, and the budget still bounds the total.
 */
export function overloadedBackoffMs(retry: number): number {
  return 1_000 * 2 ** retry;
}

/**
 * `Retry-After` in milliseconds from `now`: delay-seconds (`120`) or an HTTP date (a past date is 0).
 * null when the header is missing or unreadable — the server did not say when, so there is no retry.
 */
export function retryAfterMs(header: string | null, now: number): number | null {
  if (header === null) return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) {
    const seconds = Number(value);
    return Number.isSafeInteger(seconds) ? seconds * 1000 : null;
  }
  // Date.parse also reads bare numbers ("1.5") as dates; an HTTP date always names its day and month.
  if (!/[A-Za-z]/.test(value)) return null;
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - now) : null;
}

/** Waits, unless the caller aborts first: then it rejects at once with the aborted ProviderError. */
export async function waitUnlessAborted(ms: number, signal: AbortSignal | undefined): Promise<void> {
  try {
    await delay(ms, undefined, signal === undefined ? {} : { signal });
  } catch {
    throw abortedError();
  }
}
