/** One round's bystander calls, summarized: in µs, by nearest rank. */
export interface LatencySummary {
  readonly calls: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

/** The value at rank `ceil(p × n)` of the sorted samples (nearest rank): always one of the samples. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) throw new RangeError('percentile of no samples');
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(p * sorted.length)));
  return sorted[rank - 1] as number;
}

export function summarizeLatencies(samplesUs: readonly number[]): LatencySummary {
  const sorted = [...samplesUs].sort((a, b) => a - b);
  return {
    calls: sorted.length,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    max: sorted.at(-1) ?? Number.NaN,
  };
}
