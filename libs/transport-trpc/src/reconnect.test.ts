import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RECONNECT, backoffDelay } from './reconnect';

const policy = { minDelayMs: 100, maxDelayMs: 5_000 };
const middle = () => 0.5;

describe('backoffDelay', () => {
  it('doubles with each failed attempt from the minimum delay', () => {
    expect([1, 2, 3, 4].map((attempt) => backoffDelay(attempt, policy, middle))).toEqual([100, 200, 400, 800]);
  });

  it('never exceeds the maximum delay, however many attempts failed', () => {
    expect(backoffDelay(50, policy, middle)).toBe(5_000);
    expect(backoffDelay(10_000, policy, middle)).toBe(5_000);
  });

  it('treats a dropped connection (attempt 0) like the first failure', () => {
    expect(backoffDelay(0, policy, middle)).toBe(backoffDelay(1, policy, middle));
  });

  it('jitters within ±20% so clients do not reconnect in step', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 40 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (attempt, random) => {
          const base = backoffDelay(attempt, policy, middle);
          const delay = backoffDelay(attempt, policy, () => random);
          expect(delay).toBeGreaterThanOrEqual(Math.floor(base * 0.8));
          expect(delay).toBeLessThanOrEqual(Math.ceil(base * 1.2));
        },
      ),
    );
    expect(backoffDelay(1, policy, () => 0)).not.toBe(backoffDelay(1, policy, () => 0.99));
  });

  it('uses the default policy when none is given', () => {
    expect(backoffDelay(1, undefined, middle)).toBe(DEFAULT_RECONNECT.minDelayMs);
  });
});
