import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { runTool, tools } from './run-tool';

/** One problem ESLint reported, with the file relative to the fixture root. */
export interface LintProblem {
  readonly file: string;
  readonly ruleId: string | null;
  readonly message: string;
}

interface EslintJsonResult {
  filePath: string;
  messages: { ruleId: string | null; message: string }[];
}

/**
 * Runs the ESLint CLI in the fixture root (so Nx finds the fixture's project graph) and returns every problem.
 * The report goes to a file: the boundary rule may print warnings on stdout.
 */
export async function lintFiles(root: string, files: readonly string[]): Promise<LintProblem[]> {
  const reportFile = join(root, 'eslint-report.json');
  const run = await runTool(tools.eslint, ['--format', 'json', '--output-file', reportFile, ...files], root);
  if (run.code !== 0 && run.code !== 1) {
    throw new Error(`eslint crashed (exit ${run.code}):\n${run.stderr}${run.stdout}`);
  }
  const results = JSON.parse(await readFile(reportFile, 'utf-8')) as EslintJsonResult[];
  return results.flatMap((result) =>
    result.messages.map((message) => ({
      file: relative(root, result.filePath),
      ruleId: message.ruleId,
      message: message.message,
    })),
  );
}
