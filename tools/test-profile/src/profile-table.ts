import type { FileTiming } from './file-timings';
import type { TaskTiming } from './task-timings';

const seconds = (ms: number) => (ms / 1000).toFixed(1);

/** Columns padded to their widest cell; the first column left-aligned, the rest right-aligned. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (row: readonly string[]) =>
    row
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0)))
      .join('  ');
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}

/**
 * Per target, how many tasks ran and the wall time from the first one's start to the last one's end. Nx runs a
 * target's tasks as one batch (one process for all projects), so a task's own duration is the batch's, not the
 * project's: see `projectTestTable` for where the test time goes by project.
 */
export function phaseTable(tasks: readonly TaskTiming[]): string {
  const rows = [...new Set(tasks.map((task) => task.target))].map((target) => {
    const own = tasks.filter((task) => task.target === target);
    const start = Math.min(...own.map((task) => task.startMs));
    const end = Math.max(...own.map((task) => task.startMs + task.ms));
    return [target, String(own.length), seconds(end - start)];
  });
  return formatTable(['target', 'tasks', 'wall s'], rows);
}

/** Per project, the time of its test files (from vitest's report) and their number, slowest first. */
export function projectTestTable(files: readonly FileTiming[], projectOf: (file: string) => string): string {
  const byProject = new Map<string, { ms: number; files: number; tests: number }>();
  for (const file of files) {
    const project = projectOf(file.file);
    const sum = byProject.get(project) ?? { ms: 0, files: 0, tests: 0 };
    byProject.set(project, { ms: sum.ms + file.ms, files: sum.files + 1, tests: sum.tests + file.tests });
  }
  const all = files.reduce((sum, file) => sum + file.ms, 0);
  const rows = [...byProject]
    .sort(([, a], [, b]) => b.ms - a.ms)
    .map(([project, sum]) => [
      project,
      seconds(sum.ms),
      `${((100 * sum.ms) / Math.max(all, 1)).toFixed(1)}%`,
      String(sum.files),
      String(sum.tests),
    ]);
  return formatTable(['project', 'test file s', 'share', 'files', 'tests'], rows);
}

/** The slowest test files, with what their import cost and the share of all test-file time each takes. */
export function fileTable(files: readonly FileTiming[], top: number): string {
  const all = files.reduce((sum, file) => sum + file.ms, 0);
  const rows = [...files]
    .sort((a, b) => b.ms - a.ms)
    .slice(0, top)
    .map((file) => [
      file.file,
      seconds(file.ms),
      seconds(file.importMs),
      `${((100 * file.ms) / Math.max(all, 1)).toFixed(1)}%`,
      String(file.tests),
    ]);
  const imports = files.reduce((sum, file) => sum + file.importMs, 0);
  const tests = files.reduce((sum, file) => sum + file.tests, 0);
  rows.push([`(all ${files.length} files)`, seconds(all), seconds(imports), '100%', String(tests)]);
  return formatTable(['test file', 's', 'import s', 'share', 'tests'], rows);
}
