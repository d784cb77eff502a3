import { describe, expect, it } from 'vitest';
import { NO_HOPS, countAsyncHops, hopKind, hopsPerCall } from './async-hops';

describe('async hops', () => {
  it("names each async resource's callbacks by the queue they wait in", () => {
    expect(hopKind('PROMISE')).toBe('promiseReactions');
    expect(hopKind('TickObject')).toBe('ticks');
    expect(hopKind('Microtask')).toBe('microtasks');
    expect(hopKind('Immediate')).toBe('immediates');
    expect(hopKind('Timeout')).toBe('timers');
    expect(hopKind('PIPEWRAP')).toBe('io');
  });

  it('counts the callbacks run while counting, each by its kind', async () => {
    const stop = countAsyncHops();
    await new Promise<void>((resolve) => process.nextTick(resolve));
    await new Promise<void>((resolve) => setImmediate(resolve));
    await new Promise<void>((resolve) => setTimeout(resolve, 1));
    clearTimeout(setTimeout(() => undefined, 1000));
    const hops = stop();
    expect(hops.ticks).toBeGreaterThanOrEqual(1);
    expect(hops.immediates).toBe(1);
    expect(hops.timers).toBe(1);
    expect(hops.timersArmed).toBe(2);
    expect(hops.promiseReactions).toBeGreaterThanOrEqual(3);
  });

  it('counts nothing once stopped', async () => {
    const stop = countAsyncHops();
    const hops = stop();
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(hops.immediates).toBe(0);
  });

  it('divides by the calls, to two decimals', () => {
    expect(hopsPerCall({ ...NO_HOPS, promiseReactions: 300, immediates: 1, timersArmed: 100 }, 100)).toEqual({
      ...NO_HOPS,
      promiseReactions: 3,
      immediates: 0.01,
      timersArmed: 1,
    });
  });
});
