import type { RowName } from './row-names';

export type Verdict = 'PASS' | 'FAIL' | 'SKIP';

/** One condition a row must meet, as it is printed when it does not. */
export interface Check {
  readonly label: string;
  readonly ok: boolean;
}

/** One line of the soak table. */
export interface RowReport {
  readonly row: RowName;
  readonly verdict: Verdict;
  /** What was done, in a sentence. */
  readonly what: string;
  /** Counted outcomes: frames sent, calls made, errors, crashes, processes. */
  readonly counts: readonly string[];
  /** Measured figures: latencies, memory, open file descriptors, durations. */
  readonly figures: readonly string[];
  /** Why it failed or was skipped: each check that did not hold, or what stopped the row. */
  readonly reasons: readonly string[];
}

export interface RowOutcome {
  readonly what: string;
  readonly counts: readonly string[];
  readonly figures: readonly string[];
  readonly checks: readonly Check[];
}

/** PASS when every check holds; a row with no checks proves nothing and fails. */
export function judge(row: RowName, outcome: RowOutcome): RowReport {
  const failing = outcome.checks.filter((check) => !check.ok).map((check) => check.label);
  const reasons = outcome.checks.length === 0 ? ['the row checked nothing'] : failing;
  return {
    row,
    verdict: reasons.length === 0 ? 'PASS' : 'FAIL',
    what: outcome.what,
    counts: outcome.counts,
    figures: outcome.figures,
    reasons,
  };
}

export function skipped(row: RowName, what: string, reason: string): RowReport {
  return { row, verdict: 'SKIP', what, counts: [], figures: [], reasons: [reason] };
}

/** A row that could not finish (an error, or its time bound): a failure, with whatever it had counted. */
export function unfinished(row: RowName, what: string, reason: string): RowReport {
  return { row, verdict: 'FAIL', what, counts: [], figures: [], reasons: [reason] };
}
