/** One problem in oxlint's JSON report (`--format json`); `code` is `plugin(rule)`, absent for a parse error. */
export interface OxlintDiagnostic {
  readonly message: string;
  readonly code?: string;
  readonly severity: 'error' | 'warning' | 'advice';
  /** Relative to the folder oxlint ran in; absent when the problem is the run's (a file it could not open). */
  readonly filename?: string;
  readonly labels: readonly { readonly span: { readonly line: number; readonly column: number } }[];
}

interface OxlintReport {
  readonly diagnostics: OxlintDiagnostic[];
  readonly number_of_files: number;
}

/** What a run reported: its diagnostics, or why it did not lint (what it printed). */
export type ReadReport =
  | { readonly linted: true; readonly diagnostics: readonly OxlintDiagnostic[] }
  | { readonly linted: false; readonly failure: string };

const reportStart = /\{\s*"diagnostics"/;

/**
 * The diagnostics of a run, from what it printed on stdout. A run counts as failed when stdout holds anything
 * besides the report: oxlint prints a broken config's error or "No files found" there (and exits 1, as for lint
 * errors), and Nx's module-boundary rule prints there that it skipped itself for want of a project graph.
 */
export function readReport(stdout: string): ReadReport {
  const start = stdout.search(reportStart);
  if (start === -1) return { linted: false, failure: `oxlint printed no report:\n${stdout}` };
  const before = stdout.slice(0, start).trim();
  if (before !== '') return { linted: false, failure: before };
  let report: OxlintReport;
  try {
    report = JSON.parse(stdout.slice(start)) as OxlintReport;
  } catch {
    return { linted: false, failure: `oxlint printed a report that is not JSON:\n${stdout}` };
  }
  if (report.number_of_files === 0) return { linted: false, failure: 'oxlint found no files to lint.' };
  return { linted: true, diagnostics: report.diagnostics };
}

/** Diagnostics as ESLint's stylish formatter laid them out: a file's name, then a line per problem. */
export function formatDiagnostics(diagnostics: readonly OxlintDiagnostic[]): string {
  const byFile = new Map<string, OxlintDiagnostic[]>();
  for (const diagnostic of diagnostics) {
    const file = diagnostic.filename ?? '(the run)';
    byFile.set(file, [...(byFile.get(file) ?? []), diagnostic]);
  }
  const blocks = [...byFile].map(([file, own]) => {
    const lines = own.map((diagnostic) => {
      const span = diagnostic.labels[0]?.span;
      const where = span === undefined ? '' : `${span.line}:${span.column}`;
      const rule = diagnostic.code === undefined ? '' : `  ${diagnostic.code}`;
      return `  ${where.padEnd(8)} ${diagnostic.severity.padEnd(7)} ${diagnostic.message}${rule}`;
    });
    return `${file}\n${lines.join('\n')}\n`;
  });
  return blocks.join('\n');
}
