/** One test file of a run: its whole cost (the runner's setup, the import, hooks and tests) and how much was import. */
export interface FileTiming {
  readonly file: string;
  readonly ms: number;
  readonly importMs: number;
  readonly tests: number;
  readonly failed: number;
}

/**
 * The files of the test executor's timings report (`--timingsReport`). Vitest's own JSON report times a file from
 * its first test's start to its last test's end, which leaves out the import and the `beforeAll` hooks, where the
 * slowest files spend most of their time; this report has both.
 */
export function fileTimingsOf(report: unknown): FileTiming[] {
  if (!Array.isArray(report)) throw new Error('A timings report is a JSON array of files');
  return report.flatMap((entry: unknown) => {
    const { file, prepareMs, collectMs, runMs, tests, failed } = (entry ?? {}) as Record<string, unknown>;
    const numbers = [prepareMs, collectMs, runMs, tests, failed];
    if (typeof file !== 'string' || !numbers.every((value) => typeof value === 'number')) return [];
    const [prepare, collect, run, count, failures] = numbers as number[];
    return [
      {
        file,
        ms: (prepare ?? 0) + (collect ?? 0) + (run ?? 0),
        importMs: (prepare ?? 0) + (collect ?? 0),
        tests: count ?? 0,
        failed: failures ?? 0,
      },
    ];
  });
}
