import { describe, expect, it } from 'vitest';
import { bytesText, count, latencyText, medianOf, mibChange, ms, quantile, summarizeLatencies } from './figures';

describe('quantile', () => {
  it('takes the nearest rank', () => {
    const values = Float64Array.from({ length: 100 }, (_, index) => index + 1);
    expect(quantile(values, 0.5)).toBe(50);
    expect(quantile(values, 0.99)).toBe(99);
    expect(quantile(values, 1)).toBe(100);
    expect(quantile([7], 0.99)).toBe(7);
  });

  it('is NaN for no values', () => {
    expect(quantile([], 0.5)).toBeNaN();
  });
});

describe('medianOf', () => {
  it('takes the middle value, or the mean of the two middle ones', () => {
    expect(medianOf([3, 1, 2])).toBe(2);
    expect(medianOf([4, 1, 3, 2])).toBe(2.5);
    expect(medianOf([])).toBeNaN();
  });
});

describe('summarizeLatencies', () => {
  it('sorts before taking quantiles', () => {
    expect(summarizeLatencies([5, 1, 3, 2, 4])).toEqual({ count: 5, p50: 3, p99: 5, max: 5 });
  });
});

describe('figures as text', () => {
  it('writes counts with separators, durations by size, memory changes with a sign', () => {
    expect(count(200_000)).toBe('200,000');
    expect(ms(1.234)).toBe('1.23 ms');
    expect(ms(12.34)).toBe('12.3 ms');
    expect(ms(1234.5)).toBe('1,235 ms');
    expect(mibChange(3 * 1024 * 1024)).toBe('+3 MiB');
    expect(bytesText(10_240)).toBe('10 KiB');
    expect(bytesText(2.5 * 1024 * 1024)).toBe('2.5 MiB');
    expect(mibChange(-1.5 * 1024 * 1024)).toBe('−1.5 MiB');
    expect(latencyText({ count: 1, p50: 1, p99: 2, max: 3 })).toBe('p50 1 ms, p99 2 ms, max 3 ms');
  });
});
