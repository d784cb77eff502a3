import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RefreshLoop } from './refresh-loop';

/** A check that stays open until the test finishes it. */
function gatedChecks() {
  const started: Array<{ signal: AbortSignal; finish: () => void }> = [];
  const check = (signal: AbortSignal) =>
    new Promise<void>((resolve) => {
      started.push({ signal, finish: resolve });
    });
  return { started, check };
}

describe('when checks run', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs one check for a burst of requests, after the quiet time', async () => {
    const checks = vi.fn(async () => undefined);
    const loop = new RefreshLoop({ debounceMs: 100, maxDelayMs: 1000, check: checks });
    for (let request = 0; request < 5; request++) {
      loop.schedule();
      await vi.advanceTimersByTimeAsync(50);
    }
    expect(checks).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(100);
    expect(checks).toHaveBeenCalledTimes(1);
    loop.dispose();
  });

  it('still checks within the longest delay while requests keep coming', async () => {
    const checks = vi.fn(async () => undefined);
    const loop = new RefreshLoop({ debounceMs: 100, maxDelayMs: 300, check: checks });
    for (let request = 0; request < 10; request++) {
      loop.schedule();
      await vi.advanceTimersByTimeAsync(50);
    }
    expect(checks.mock.calls.length).toBeGreaterThanOrEqual(1);
    expect(checks.mock.calls.length).toBeLessThanOrEqual(2);
    loop.dispose();
  });

  it('never overlaps checks: a request during one runs exactly one more after it', async () => {
    const { started, check } = gatedChecks();
    const loop = new RefreshLoop({ debounceMs: 10, maxDelayMs: 100, check });
    const first = loop.now();
    expect(started).toHaveLength(1);
    const second = loop.now();
    const third = loop.now();
    loop.schedule();
    await vi.advanceTimersByTimeAsync(50);
    expect(started).toHaveLength(1);

    let secondDone = false;
    void second.then(() => (secondDone = true));
    started[0]?.finish();
    await first;
    await vi.advanceTimersByTimeAsync(0);
    expect(started).toHaveLength(2);
    expect(secondDone).toBe(false);
    started[1]?.finish();
    await Promise.all([second, third]);
    await vi.advanceTimersByTimeAsync(50);
    expect(started).toHaveLength(2);
    loop.dispose();
  });

  it('aborts the running check on dispose, lets its waiters go, and runs nothing after', async () => {
    const { started, check } = gatedChecks();
    const loop = new RefreshLoop({ debounceMs: 10, maxDelayMs: 100, check });
    const waiting = loop.now();
    loop.schedule();
    loop.dispose();
    expect(started[0]?.signal.aborted).toBe(true);
    await waiting;
    started[0]?.finish();
    await vi.advanceTimersByTimeAsync(100);
    expect(started).toHaveLength(1);
    await loop.now();
    expect(started).toHaveLength(1);
  });
});
