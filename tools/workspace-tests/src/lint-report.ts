import { runTool, tools } from './run-tool';

/** One problem oxlint reported, with the file relative to the fixture root and the rule named as in the config. */
export interface LintProblem {
  readonly file: string;
  readonly ruleId: string | null;
  readonly message: string;
}

interface OxlintJsonReport {
  diagnostics: { filename: string; code?: string; message: string }[];
}

/** `@nx(enforce-module-boundaries)` → `@nx/enforce-module-boundaries`, `eslint(no-var)` → `no-var`. */
function ruleIdOf(code: string | undefined): string | null {
  const parts = code === undefined ? null : /^(.+)\((.+)\)$/.exec(code);
  if (!parts) return null;
  const [, plugin, rule] = parts;
  if (plugin === 'eslint') return rule ?? null;
  return `${plugin === 'typescript' ? '@typescript-eslint' : plugin}/${rule}`;
}

/**
 * Runs the oxlint CLI in the fixture root (so Nx's module-boundary rule finds the fixture's project graph) and
 * returns every problem. Anything printed besides the JSON report (a broken config, the boundary rule skipping
 * itself for want of a project graph) is a crash, not a clean result.
 */
export async function lintFiles(root: string, files: readonly string[]): Promise<LintProblem[]> {
  const run = await runTool(tools.oxlint, ['--format', 'json', ...files], root);
  const start = run.stdout.search(/\{\s*"diagnostics"/);
  if ((run.code !== 0 && run.code !== 1) || start === -1 || run.stdout.slice(0, start).trim() !== '') {
    throw new Error(`oxlint crashed (exit ${run.code}):\n${run.stderr}${run.stdout}`);
  }
  const report = JSON.parse(run.stdout.slice(start)) as OxlintJsonReport;
  return report.diagnostics.map((diagnostic) => ({
    file: diagnostic.filename,
    ruleId: ruleIdOf(diagnostic.code),
    message: diagnostic.message,
  }));
}
