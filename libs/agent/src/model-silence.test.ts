import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ModelSilence } from './model-silence';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A silence watch on the fake clock, recording what it reports. */
function watch(noticeMs: number): { silence: ModelSilence; reports: Array<number | null> } {
  const reports: Array<number | null> = [];
  const silence = new ModelSilence(
    noticeMs,
    (silentMs) => reports.push(silentMs),
    () => Date.now(),
  );
  return { silence, reports };
}

describe('ModelSilence', () => {
  it('reports a silence once it lasts the notice time, once, and its end when the model speaks', () => {
    const { silence, reports } = watch(5_000);
    vi.advanceTimersByTime(4_999);
    expect(reports).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(reports).toEqual([5_000]);
    vi.advanceTimersByTime(60_000);
    expect(reports).toEqual([5_000]);
    silence.heard();
    expect(reports).toEqual([5_000, null]);
    silence.stop();
  });

  it('counts from the last thing heard, not from the start', () => {
    const { silence, reports } = watch(5_000);
    vi.advanceTimersByTime(3_000);
    silence.heard();
    vi.advanceTimersByTime(4_000);
    expect(reports).toEqual([]);
    vi.advanceTimersByTime(1_000);
    expect(reports).toEqual([5_000]);
    silence.heard();
    vi.advanceTimersByTime(5_000);
    // A second silence is reported as a new one.
    expect(reports).toEqual([5_000, null, 5_000]);
    silence.stop();
  });

  it('ends a reported silence when the request ends, and reports nothing after', () => {
    const { silence, reports } = watch(1_000);
    vi.advanceTimersByTime(1_000);
    silence.stop();
    vi.advanceTimersByTime(10_000);
    expect(reports).toEqual([1_000, null]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('says nothing for a request that ends before the notice time', () => {
    const { silence, reports } = watch(1_000);
    vi.advanceTimersByTime(500);
    silence.stop();
    vi.advanceTimersByTime(10_000);
    expect(reports).toEqual([]);
  });
});
