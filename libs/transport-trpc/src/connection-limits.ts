/**
 * What a host grants a connection before it has proved who it is, and how much of the host's turn one connection's
 * requests may take before the others' get theirs. One object with defaults, as Cap'n Web keeps its limits on
 * untrusted input; a host overrides any of them (`RpcHostOptions.connections`). See docs/decisions.md.
 */
export interface ConnectionLimits {
  /**
   * A socket not authenticated this long after it was accepted is refused (`not_authorized`, close 4401) and closed,
   * whether or not it answers pings.
   */
  readonly authDeadlineMs: number;
  /** Sockets accepted and not yet authenticated (or refused and not yet closed); one more is refused (1013) at once. */
  readonly maxUnauthenticated: number;
  /**
   * Requests one connection starts in a turn of the event loop; its next ones wait for a turn in which every other
   * connection with waiting requests has started as many, and its socket is not read while they wait.
   * `Infinity` starts every request as soon as it is read (no fairness between connections).
   */
  readonly requestsPerTurn: number;
}

/**
 * 10 s: an honest client sends its connection params with its first write, so the host reads them in the same turn
 * as the upgrade; 10 s is the server keep-alive's own pong wait, above the client's 8 s heartbeat window, and leaves
 * room for a busy machine. 128 pending sockets: far more than a host's clients reconnecting at once (each is
 * authenticated in the turn its params are read), far below the 1,024 file descriptors of a default soft limit.
 * 32 requests a turn: another connection's call waits about one share of a flood's requests (a refused subscription
 * costs ~35 µs, so ~1.2 ms at 32, 0.7 at 16, 2.2 at 64 in `bench:flood`), while a lone connection with 100 calls in
 * flight costs the same CPU per call at every share; 32 also bounds what a paused connection leaves waiting.
 */
export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  authDeadlineMs: 10_000,
  maxUnauthenticated: 128,
  requestsPerTurn: 32,
};

/** The limits in force for a host's option: the defaults, with what the host set; a nonsensical value throws. */
export function connectionLimits(option: Partial<ConnectionLimits> = {}): ConnectionLimits {
  const limits = { ...DEFAULT_CONNECTION_LIMITS, ...option };
  if (!Number.isFinite(limits.authDeadlineMs) || limits.authDeadlineMs <= 0)
    throw new RangeError('connections.authDeadlineMs must be a positive number of milliseconds');
  for (const name of ['maxUnauthenticated', 'requestsPerTurn'] as const) {
    const value = limits[name];
    if (!(Number.isInteger(value) || value === Number.POSITIVE_INFINITY) || value < 1)
      throw new RangeError(`connections.${name} must be a whole number of at least 1, or Infinity`);
  }
  return limits;
}
