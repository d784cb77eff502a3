import { readFile } from 'node:fs/promises';

/** What a whole test file cost in a past run (import, hooks and tests, in ms), by path relative to the workspace. */
export type FileDurations = ReadonlyMap<string, number>;

/** Where the suite keeps the durations of its last profile (`npm run test:profile` rewrites it). */
export const FILE_DURATIONS = 'tools/workspace/test-durations.json';

/** One test file to place: the vitest project it runs in and its path relative to the workspace. */
export interface PlacedFile {
  readonly project: string;
  readonly file: string;
}

/**
 * The order the run hands files to its workers: longest first, so the few files that take most of a minute start
 * while short ones fill the other workers, instead of starting last and leaving every other worker idle (a fresh
 * clone has no vitest cache, and vitest then orders by project name and file size). A project's files stay together,
 * because a worker can only take the next file without restarting when it belongs to the same vitest project; the
 * projects go in the order of their longest file. A file with no known duration (a new one) goes first, as vitest
 * would put it.
 */
export function longestFirst<T extends PlacedFile>(files: readonly T[], durations: FileDurations): T[] {
  const cost = (file: T) => durations.get(file.file) ?? Number.POSITIVE_INFINITY;
  const byProject = new Map<string, T[]>();
  for (const file of files) byProject.set(file.project, [...(byProject.get(file.project) ?? []), file]);
  const projects = [...byProject.values()].map((own) => own.sort((a, b) => cost(b) - cost(a) || compare(a, b)));
  projects.sort((a, b) => cost(b[0] as T) - cost(a[0] as T) || compare(a[0] as T, b[0] as T));
  return projects.flat();
}

/** The durations file, or none when it is missing or not a map of numbers (the order only costs time, never fails). */
export async function readFileDurations(path: string): Promise<FileDurations> {
  try {
    const parsed: unknown = JSON.parse(await readFile(path, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return new Map();
    return new Map(Object.entries(parsed).filter((entry): entry is [string, number] => typeof entry[1] === 'number'));
  } catch {
    return new Map();
  }
}

/** The durations file's text: paths sorted, whole milliseconds, one per line, so a new profile diffs readably. */
export function formatFileDurations(durations: FileDurations): string {
  const sorted = [...durations].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${JSON.stringify(Object.fromEntries(sorted.map(([file, ms]) => [file, Math.round(ms)])), null, 2)}\n`;
}

function compare(a: PlacedFile, b: PlacedFile): number {
  return a.project < b.project ? -1 : a.project > b.project ? 1 : a.file < b.file ? -1 : a.file > b.file ? 1 : 0;
}
