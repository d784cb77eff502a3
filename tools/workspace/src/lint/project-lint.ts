import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { ESLint } from 'eslint';

/** What linting one project gave: whether it passed (warnings pass), and ESLint's report of it. */
export interface ProjectLint {
  readonly success: boolean;
  readonly output: string;
}

const eslintCli = join(dirname(createRequire(import.meta.url).resolve('eslint/package.json')), 'bin', 'eslint.js');

/**
 * Lints the projects at these roots (relative to the workspace) with one run of the ESLint CLI over all their
 * folders, where `eslint .` per project loads the config, plugins and parser again in every process. The CLI and
 * not the Node API in this process: Nx's module-boundary rule reads the project graph once only when it runs under
 * the ESLint or Nx CLI, and again for every file otherwise (twice the time for the workspace). Each file's report
 * goes to the project whose root holds it; a run that fails outright (a broken config) fails every project.
 */
export async function lintProjects(
  workspaceRoot: string,
  projectRoots: readonly string[],
): Promise<Map<string, ProjectLint>> {
  const folders = projectRoots.map((root) => join(workspaceRoot, root));
  const run = await runEslint(workspaceRoot, folders);
  if (run.results === undefined) {
    return new Map(projectRoots.map((root) => [root, { success: false, output: run.stderr }]));
  }
  const formatter = await new ESLint({ cwd: workspaceRoot }).loadFormatter('stylish');
  // Longest first, so a file goes to the innermost project.
  const byDepth = projectRoots
    .map((root, index) => ({ root, folder: folders[index] ?? '' }))
    .sort((a, b) => b.folder.length - a.folder.length);
  const grouped = new Map(projectRoots.map((root) => [root, [] as ESLint.LintResult[]]));
  for (const result of run.results) {
    const owner = byDepth.find(({ folder }) => result.filePath.startsWith(folder + sep));
    if (owner !== undefined) grouped.get(owner.root)?.push(result);
  }
  const linted = new Map<string, ProjectLint>();
  for (const [root, own] of grouped) {
    const output = await formatter.format(own);
    linted.set(root, { success: own.every((result) => result.errorCount === 0), output });
  }
  return linted;
}

/** The CLI's JSON results; none when it failed outright (exit 2), with what it printed. */
function runEslint(
  cwd: string,
  folders: readonly string[],
): Promise<{ results?: ESLint.LintResult[]; stderr: string }> {
  return new Promise((resolve) => {
    const options = { cwd, maxBuffer: 512 * 1024 * 1024 };
    execFile(process.execPath, [eslintCli, '--format', 'json', ...folders], options, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 2;
      if (code > 1) return resolve({ stderr: stderr || String(error) });
      try {
        resolve({ results: JSON.parse(stdout) as ESLint.LintResult[], stderr });
      } catch {
        resolve({ stderr: `ESLint printed no JSON report:\n${stderr}` });
      }
    });
  });
}
