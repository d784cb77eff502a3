import { openFds, rssBytes } from './proc-stats';
import { until } from './waiting';

/** A process's resident memory and open file descriptors at one moment. */
export interface Footprint {
  readonly rss: number;
  readonly fds: number;
}

export function footprintOf(pid: number): Footprint {
  return { rss: rssBytes(pid) ?? Number.NaN, fds: openFds(pid) ?? Number.NaN };
}

/** Samples a process every `everyMs` and keeps the highest RSS and fd count seen, until stopped. */
export function samplePeak(pid: number, everyMs = 200): { stop(): Footprint } {
  let peak = footprintOf(pid);
  const timer = setInterval(() => {
    const now = footprintOf(pid);
    peak = { rss: Math.max(peak.rss, now.rss), fds: Math.max(peak.fds, now.fds) };
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}

/**
 * Waits (up to `timeoutMs`) for a process to come back to `within` of a baseline: the fds at once when the sockets
 * close, memory as the heap is collected and returned. Resolves with the last footprint seen.
 */
export async function settleTowards(
  pid: number,
  within: (now: Footprint) => boolean,
  timeoutMs: number,
): Promise<Footprint> {
  let last = footprintOf(pid);
  await until(() => within((last = footprintOf(pid))), timeoutMs, 250);
  return last;
}
