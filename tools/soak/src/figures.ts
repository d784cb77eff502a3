/** How the table writes numbers: counts with separators, durations in ms, memory in MiB. */
export function count(value: number): string {
  return value.toLocaleString('en-US');
}

export function ms(value: number): string {
  return `${value.toLocaleString('en-US', { maximumFractionDigits: value < 10 ? 2 : value < 100 ? 1 : 0 })} ms`;
}

export function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toLocaleString('en-US', { maximumFractionDigits: 1 })} MiB`;
}

/** A size in KiB below a MiB, else in MiB. */
export function bytesText(bytes: number): string {
  return bytes < 1024 * 1024 ? `${count(Math.round(bytes / 1024))} KiB` : mib(bytes);
}

/** A signed change in MiB, e.g. "+3.2 MiB". */
export function mibChange(bytes: number): string {
  return `${bytes >= 0 ? '+' : '−'}${mib(Math.abs(bytes))}`;
}

/** The value at quantile `q` (0..1) of ascending `sorted` values: nearest rank; NaN when there are none. */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil(q * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] as number;
}

/** The middle value (the mean of the two middle ones for an even count); NaN for none. */
export function medianOf(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

export interface LatencySummary {
  readonly count: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

export function summarizeLatencies(values: readonly number[] | Float64Array): LatencySummary {
  const sorted = Float64Array.from(values).sort();
  return {
    count: sorted.length,
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    max: sorted.length === 0 ? Number.NaN : (sorted[sorted.length - 1] as number),
  };
}

/** "p50 1.2 ms, p99 8 ms, max 20 ms". */
export function latencyText(summary: LatencySummary): string {
  return `p50 ${ms(summary.p50)}, p99 ${ms(summary.p99)}, max ${ms(summary.max)}`;
}
