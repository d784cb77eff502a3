import { readFile } from 'node:fs/promises';

/**
 * The options `node` is given before the script in an npm script (`node --max-semi-space-size=1 tools/…/x.mjs` →
 * `['--max-semi-space-size=1']`), so the bench starts pi-tui the way `npm start` does. Anything but a node command
 * is an error: the bench would no longer run what `npm start` runs.
 */
export function nodeOptionsOf(script: string): string[] {
  const [command, ...rest] = script.trim().split(/\s+/);
  if (command !== 'node') throw new Error(`npm start is not a node command: ${script}`);
  const scriptAt = rest.findIndex((word) => !word.startsWith('-'));
  return scriptAt < 0 ? rest : rest.slice(0, scriptAt);
}

/** The node options of the `start` script in the package.json at `path` (the workspace root's). */
export async function npmStartNodeOptions(path: string): Promise<string[]> {
  const manifest = JSON.parse(await readFile(path, 'utf8')) as { scripts?: { start?: unknown } };
  const start = manifest.scripts?.start;
  if (typeof start !== 'string') throw new Error(`${path} has no start script`);
  return nodeOptionsOf(start);
}
