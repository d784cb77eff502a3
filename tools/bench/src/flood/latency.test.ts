import { describe, expect, it } from 'vitest';
import { percentile, summarizeLatencies } from './latency';

describe('bystander latency summaries', () => {
  it('take percentiles by nearest rank, so every figure is a measured call', () => {
    const samples = Array.from({ length: 200 }, (_, index) => index + 1);
    expect(percentile(samples, 0.5)).toBe(100);
    expect(percentile(samples, 0.99)).toBe(198);
    expect(percentile(samples, 1)).toBe(200);
  });

  it('with a single call, every percentile is that call (a flood that stalls the bystander leaves one)', () => {
    expect(summarizeLatencies([48_000])).toEqual({ calls: 1, p50: 48_000, p99: 48_000, max: 48_000 });
  });

  it('sort the samples themselves, whatever order they came in', () => {
    expect(summarizeLatencies([30, 10, 20])).toEqual({ calls: 3, p50: 20, p99: 30, max: 30 });
  });

  it('refuse an empty round rather than report a made-up figure', () => {
    expect(() => percentile([], 0.5)).toThrow(RangeError);
  });
});
