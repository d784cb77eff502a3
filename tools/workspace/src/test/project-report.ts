/** A test error as the report shows it: what vitest serialised of it. */
export interface ReportedError {
  readonly message: string;
  readonly stack?: string | undefined;
  readonly diff?: string | undefined;
}

export interface ReportedTest {
  readonly name: string;
  readonly state: 'passed' | 'failed' | 'skipped' | 'pending';
  readonly durationMs: number;
  readonly errors: readonly ReportedError[];
}

/** One test file of a project, once it has run. */
export interface ReportedModule {
  /** Relative to the project's root. */
  readonly file: string;
  readonly durationMs: number;
  readonly tests: readonly ReportedTest[];
  /** Errors outside any test: the file failed to import, a hook threw, an unhandled rejection while it ran. */
  readonly errors: readonly ReportedError[];
  /** What the tests printed with `console`, in order. */
  readonly logs: readonly string[];
}

/** A test slower than this is named under its file, as vitest's default reporter does. */
const SLOW_TEST_MS = 300;

/**
 * The report of one project's test run, shaped like vitest's default reporter's: a line per file, the failed and slow
 * tests under it, each failure with its error, and the `Test Files` and `Tests` totals (CI adds up the `Tests` lines).
 * `runErrors` failed the run without belonging to a file.
 */
export function formatProjectReport(
  project: string,
  modules: readonly ReportedModule[],
  runErrors: readonly ReportedError[] = [],
): { readonly success: boolean; readonly output: string } {
  const lines: string[] = [];
  const failures: string[] = [];
  for (const module of [...modules].sort((a, b) => a.file.localeCompare(b.file))) {
    const failed = module.errors.length > 0 || module.tests.some((test) => test.state === 'failed');
    const counts = countOf(module.tests);
    const summary =
      counts.failed > 0
        ? `${module.tests.length} tests | ${counts.failed} failed`
        : plural(module.tests.length, 'test');
    lines.push(` ${failed ? '×' : '✓'} |${project}| ${module.file} (${summary}) ${ms(module.durationMs)}`);
    for (const test of module.tests) {
      if (test.state === 'failed') lines.push(`     × ${test.name} ${ms(test.durationMs)}`);
      else if (test.state === 'passed' && test.durationMs >= SLOW_TEST_MS)
        lines.push(`     ✓ ${test.name}  ${ms(test.durationMs)}`);
      for (const error of test.errors) failures.push(failure(`${module.file} > ${test.name}`, error));
    }
    for (const error of module.errors) failures.push(failure(module.file, error));
    for (const log of module.logs) lines.push(indent(`${module.file}: ${log.trimEnd()}`, '   '));
  }
  for (const error of runErrors) failures.push(failure('(the run)', error));

  const tests = modules.flatMap((module) => module.tests);
  const counts = countOf(tests);
  const failedFiles = modules.filter(
    (module) => module.errors.length > 0 || module.tests.some((test) => test.state === 'failed'),
  ).length;
  const noFiles = modules.length === 0;
  const success = !noFiles && failedFiles === 0 && counts.failed === 0 && runErrors.length === 0;
  if (failures.length > 0) lines.push('', `⎯⎯⎯ Failed Tests ${failures.length} ⎯⎯⎯`, '', ...failures);
  lines.push('');
  if (noFiles) lines.push(' No test files found');
  lines.push(
    ` Test Files  ${totals(failedFiles, modules.length - failedFiles, 0, modules.length)}`,
    `      Tests  ${totals(counts.failed, counts.passed, counts.skipped, tests.length)}`,
    '',
  );
  return { success, output: lines.join('\n') };
}

function countOf(tests: readonly ReportedTest[]) {
  return {
    failed: tests.filter((test) => test.state === 'failed').length,
    passed: tests.filter((test) => test.state === 'passed').length,
    skipped: tests.filter((test) => test.state === 'skipped').length,
  };
}

function totals(failed: number, passed: number, skipped: number, all: number): string {
  const parts = [
    ...(failed > 0 ? [`${failed} failed`] : []),
    ...(passed > 0 || all === 0 ? [`${passed} passed`] : []),
    ...(skipped > 0 ? [`${skipped} skipped`] : []),
  ];
  return `${parts.join(' | ')} (${all})`;
}

function failure(where: string, error: ReportedError): string {
  // The stack's frames only (its head repeats the message), and of those the test's: frames inside node_modules are
  // vitest's and the libraries' own.
  const frames = error.stack
    ?.split('\n')
    .filter((line) => /^\s+at /.test(line) && !line.includes('/node_modules/'))
    .join('\n');
  const body = [error.message, error.diff, frames].filter(
    (part): part is string => part !== undefined && part.trim() !== '',
  );
  return [` FAIL  ${where}`, ...body.map((part) => indent(part, '   ')), ''].join('\n');
}

function indent(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => `${prefix}${line}`)
    .join('\n');
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function ms(duration: number): string {
  return `${Math.round(duration)}ms`;
}
