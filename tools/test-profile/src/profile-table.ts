import type { FileTiming } from './file-timings';
import type { TaskTiming } from './task-timings';

const TARGETS = ['lint', 'typecheck', 'test'] as const;

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

/** Per project, seconds per target and their sum, slowest first. */
export function projectTable(tasks: readonly TaskTiming[]): string {
  const byProject = new Map<string, Map<string, number>>();
  for (const task of tasks) {
    const targets = byProject.get(task.project) ?? new Map<string, number>();
    targets.set(task.target, (targets.get(task.target) ?? 0) + task.ms);
    byProject.set(task.project, targets);
  }
  const total = (targets: Map<string, number>) => [...targets.values()].reduce((sum, ms) => sum + ms, 0);
  const rows = [...byProject]
    .sort(([, a], [, b]) => total(b) - total(a))
    .map(([project, targets]) => [
      project,
      ...TARGETS.map((target) => (targets.has(target) ? seconds(targets.get(target) ?? 0) : '-')),
      seconds(total(targets)),
    ]);
  const sums = TARGETS.map((target) =>
    tasks.filter((task) => task.target === target).reduce((sum, t) => sum + t.ms, 0),
  );
  rows.push(['(all projects, task time)', ...sums.map(seconds), seconds(sums.reduce((a, b) => a + b, 0))]);
  return formatTable(['project', 'lint s', 'typecheck s', 'test s', 'total s'], rows);
}

/** The slowest test files, with the share of all test-file time each takes. */
export function fileTable(files: readonly FileTiming[], top: number): string {
  const all = files.reduce((sum, file) => sum + file.ms, 0);
  const rows = [...files]
    .sort((a, b) => b.ms - a.ms)
    .slice(0, top)
    .map((file) => [
      file.file,
      seconds(file.ms),
      `${((100 * file.ms) / Math.max(all, 1)).toFixed(1)}%`,
      String(file.tests),
    ]);
  rows.push([`(all ${files.length} files)`, seconds(all), '100%', String(files.reduce((sum, f) => sum + f.tests, 0))]);
  return formatTable(['test file', 's', 'share', 'tests'], rows);
}
