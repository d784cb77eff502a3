import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { innermostRoot, type ProjectOutcome } from '../project-batch';
import { formatDiagnostics, readReport, type OxlintDiagnostic, type ReadReport } from './oxlint-report';

const oxlintCli = join(dirname(createRequire(import.meta.url).resolve('oxlint/package.json')), 'bin', 'oxlint');

/**
 * Lints the projects at these roots (relative to the workspace) with one run of oxlint over all their folders, with
 * the workspace's .oxlintrc.json, on one thread: beside the other tools of a run the cores are busy anyway, and the
 * rules of the JS plugins (Nx's module boundaries among them) run in one JavaScript thread in any case. Each file's
 * diagnostics go to the project whose root holds it; a run that fails outright (a broken config, no files, the
 * module-boundary rule without a project graph) fails every project with what oxlint printed.
 */
export async function lintProjects(workspaceRoot: string, projectRoots: readonly string[]): Promise<ProjectOutcome[]> {
  const report = await lintFolders(workspaceRoot, projectRoots);
  if (!report.linted) return projectRoots.map((root) => ({ root, success: false, output: report.failure }));
  // Warnings pass; an error fails the project.
  return [...diagnosticsByProject(projectRoots, report.diagnostics)].map(([root, own]) => ({
    root,
    success: own.every((diagnostic) => diagnostic.severity !== 'error'),
    output: formatDiagnostics(own),
  }));
}

/**
 * Each project's diagnostics: those of the files under its root and no inner project's, and those of no file (a file
 * that vanished while oxlint ran), which are every project's.
 */
export function diagnosticsByProject(
  projectRoots: readonly string[],
  diagnostics: readonly OxlintDiagnostic[],
): Map<string, OxlintDiagnostic[]> {
  const grouped = new Map(projectRoots.map((root) => [root, [] as OxlintDiagnostic[]]));
  for (const diagnostic of diagnostics) {
    const { filename } = diagnostic;
    const owners = filename === undefined ? projectRoots : [innermostRoot(projectRoots, filename)];
    for (const owner of owners) if (owner !== undefined) grouped.get(owner)?.push(diagnostic);
  }
  return grouped;
}

/**
 * One oxlint run over these folders (relative to `cwd`, whose .oxlintrc.json applies) on one thread: its diagnostics,
 * or why it did not lint. oxlint exits 1 both on lint errors and when it cannot run, so its output says which.
 */
export function lintFolders(cwd: string, folders: readonly string[]): Promise<ReadReport> {
  return new Promise((resolve) => {
    const args = [oxlintCli, '--format', 'json', '--threads', '1', ...folders];
    execFile(process.execPath, args, { cwd, maxBuffer: 512 * 1024 * 1024 }, (error, stdout, stderr) => {
      const report = readReport(stdout);
      const printed = stderr || (error !== null && stdout === '' ? String(error) : '');
      resolve(report.linted || printed === '' ? report : { linted: false, failure: `${report.failure}\n${printed}` });
    });
  });
}
