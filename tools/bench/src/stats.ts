/** A figure measured once per round: its median over the rounds and the spread between rounds. */
export interface Spread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly rounds: number;
}

/** The middle value (mean of the two middle ones for an even count). Throws on an empty list: a bug. */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

export function spread(values: readonly number[]): Spread {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values), rounds: values.length };
}

/** `a / b`, or NaN when there is nothing to compare against. */
export function ratio(a: number, b: number): number {
  return b === 0 ? Number.NaN : a / b;
}
