import { describe, expect, it } from 'vitest';
import { formatDiagnostics, readReport, type OxlintDiagnostic } from './oxlint-report';

const report = (diagnostics: OxlintDiagnostic[], files = 1) =>
  JSON.stringify({ diagnostics, number_of_files: files, number_of_rules: 73, threads_count: 1, start_time: 0.1 });

const unused: OxlintDiagnostic = {
  message: "Variable 'x' is declared but never used.",
  code: 'eslint(no-unused-vars)',
  severity: 'error',
  filename: 'libs/a/src/x.ts',
  labels: [{ span: { line: 3, column: 7 } }],
};

describe("reading oxlint's JSON report", () => {
  it('gives the diagnostics of a run that linted', () => {
    expect(readReport(report([unused]))).toEqual({ linted: true, diagnostics: [unused] });
  });

  it('fails a run whose module-boundary rule skipped itself for want of a project graph', () => {
    const skipped = 'warning No cached ProjectGraph is available. The rule will be skipped.\n';
    expect(readReport(skipped + report([]))).toEqual({ linted: false, failure: skipped.trim() });
  });

  it('fails a run that printed no report, or a report of no files', () => {
    expect(readReport('Failed to parse oxlint configuration file.\n')).toMatchObject({ linted: false });
    expect(readReport(report([], 0))).toEqual({ linted: false, failure: 'oxlint found no files to lint.' });
    expect(readReport('{ "diagnostics": [')).toMatchObject({ linted: false });
  });

  it('lays out the problems file by file, with place, severity, message and rule', () => {
    const parse: OxlintDiagnostic = { message: 'Unexpected token', severity: 'error', filename: 'b.ts', labels: [] };
    const vanished: OxlintDiagnostic = { message: 'Failed to open file c.ts', severity: 'error', labels: [] };
    expect(formatDiagnostics([unused, parse, vanished])).toBe(
      'libs/a/src/x.ts\n' +
        "  3:7      error   Variable 'x' is declared but never used.  eslint(no-unused-vars)\n" +
        '\n' +
        'b.ts\n' +
        '           error   Unexpected token\n' +
        '\n' +
        '(the run)\n' +
        '           error   Failed to open file c.ts\n',
    );
  });
});
