import { readdir, readFile, stat } from 'node:fs/promises';
import { SourceMap } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * tsx compiles each .ts file to one minified line, so a profile's `file.ts:1:<column>` says little. Its cache
 * (`<tmpdir>/tsx-<uid>/`, one JSON `{ code, map }` per compiled file) keeps the source maps; the newest entry
 * per source file maps a profile position back to the TypeScript line.
 */
export type Locate = (path: string, line: number, column: number) => number | undefined;

export async function loadTsxSourceMaps(directory = join(tmpdir(), `tsx-${process.getuid?.() ?? 0}`)): Promise<Locate> {
  const newest = new Map<string, { mtime: number; map: SourceMap }>();
  const names = await readdir(directory).catch(() => [] as string[]);
  for (const name of names) {
    const file = join(directory, name);
    // The directory also holds tsx's IPC pipes.
    const info = await stat(file).catch(() => undefined);
    if (info === undefined || !info.isFile()) continue;
    const text = await readFile(file, 'utf8');
    let entry: { map?: { sources?: string[] } };
    try {
      entry = JSON.parse(text);
    } catch {
      continue;
    }
    const source = entry.map?.sources?.[0];
    if (source === undefined || (newest.get(source)?.mtime ?? -1) > info.mtimeMs) continue;
    newest.set(source, { mtime: info.mtimeMs, map: new SourceMap(entry.map as never) });
  }
  return (path, line, column) => {
    const found = newest.get(path)?.map.findEntry(line, column) as { originalLine?: number } | undefined;
    return found?.originalLine === undefined ? undefined : found.originalLine + 1;
  };
}
