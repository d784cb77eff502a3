import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { ESLint } from 'eslint';
import { innermostRoot, type ProjectOutcome } from '../project-batch';

const eslintCli = join(dirname(createRequire(import.meta.url).resolve('eslint/package.json')), 'bin', 'eslint.js');

/**
 * Lints the projects at these roots (relative to the workspace) with one run of the ESLint CLI over all their
 * folders, where `eslint .` per project loads the config, plugins and parser again in every process. The CLI and
 * not the Node API in this process: Nx's module-boundary rule reads the project graph once only when it runs under
 * the ESLint or Nx CLI, and again for every file otherwise (twice the time for the workspace). Each file's report
 * goes to the project whose root holds it; a run that fails outright (a broken config) fails every project.
 */
export async function lintProjects(workspaceRoot: string, projectRoots: readonly string[]): Promise<ProjectOutcome[]> {
  const run = await runEslint(
    workspaceRoot,
    projectRoots.map((root) => join(workspaceRoot, root)),
  );
  if (run.results === undefined) return projectRoots.map((root) => ({ root, success: false, output: run.stderr }));
  const formatter = await new ESLint({ cwd: workspaceRoot }).loadFormatter('stylish');
  const grouped = new Map(projectRoots.map((root) => [root, [] as ESLint.LintResult[]]));
  for (const result of run.results) {
    const owner = innermostRoot(projectRoots, relative(workspaceRoot, result.filePath));
    if (owner !== undefined) grouped.get(owner)?.push(result);
  }
  // Warnings pass; an error fails the project.
  return Promise.all(
    [...grouped].map(async ([root, own]) => ({
      root,
      success: own.every((result) => result.errorCount === 0),
      output: await formatter.format(own),
    })),
  );
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
