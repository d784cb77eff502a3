export interface ReconnectPolicy {
  readonly minDelayMs: number;
  readonly maxDelayMs: number;
}

export const DEFAULT_RECONNECT: ReconnectPolicy = { minDelayMs: 100, maxDelayMs: 5_000 };

/** Exponential backoff with ±20% jitter, so a fleet of clients does not reconnect in step. */
export function backoffDelay(
  attempt: number,
  policy: ReconnectPolicy = DEFAULT_RECONNECT,
  random: () => number = Math.random,
): number {
  const exponential = Math.min(policy.maxDelayMs, policy.minDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exponential * (0.8 + 0.4 * random()));
}
