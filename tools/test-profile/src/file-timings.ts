import { relative } from 'node:path';

/** One test file of a vitest run: how long it took from its start to its end, and how many tests it held. */
export interface FileTiming {
  readonly file: string;
  readonly ms: number;
  readonly tests: number;
  readonly failed: number;
}

interface VitestFileResult {
  readonly name?: unknown;
  readonly startTime?: unknown;
  readonly endTime?: unknown;
  readonly assertionResults?: ReadonlyArray<{ readonly status?: unknown }>;
}

/** The files of vitest's JSON report (`--reporter=json`), named relative to `root`. */
export function fileTimingsOf(report: unknown, root: string): FileTiming[] {
  const results = (report as { testResults?: unknown } | null)?.testResults;
  if (!Array.isArray(results)) throw new Error('A vitest JSON report has a testResults array');
  return (results as VitestFileResult[]).flatMap((result) => {
    const { name, startTime, endTime } = result;
    if (typeof name !== 'string' || typeof startTime !== 'number' || typeof endTime !== 'number') return [];
    const assertions = result.assertionResults ?? [];
    return [
      {
        file: relative(root, name),
        ms: endTime - startTime,
        tests: assertions.length,
        failed: assertions.filter((assertion) => assertion.status === 'failed').length,
      },
    ];
  });
}
