import { lstat, mkdir, readFile, readdir, rm, symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * The fixture's stand-in for `npm install`: node_modules/ holds a link to every package of the real workspace's
 * node_modules, except that each workspace package of the fixture (by its package.json name) links to the fixture's
 * own folder. Dot entries other than .bin stay out, so tool caches are written inside the fixture.
 */
export async function linkPackages(fixtureRoot: string, realRoot: string): Promise<void> {
  const modules = join(fixtureRoot, 'node_modules');
  await mkdir(modules, { recursive: true });
  for (const entry of await readdir(join(realRoot, 'node_modules'))) {
    if (entry.startsWith('.') && entry !== '.bin') continue;
    if (entry === '@pi') {
      for (const scoped of await readdir(join(realRoot, 'node_modules', entry))) {
        await link(join(realRoot, 'node_modules', entry, scoped), join(modules, entry, scoped));
      }
      continue;
    }
    await link(join(realRoot, 'node_modules', entry), join(modules, entry));
  }
  for (const packageDir of await workspacePackages(fixtureRoot)) {
    const { name } = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf-8')) as { name: string };
    await link(packageDir, join(modules, name));
  }
}

async function link(target: string, path: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await rm(path, { force: true, recursive: false }).catch(() => undefined);
  await symlink(target, path, 'dir');
}

/** The folders matched by the root package.json's `workspaces` globs (only `*` segments are supported). */
export async function workspacePackages(root: string): Promise<string[]> {
  const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf-8')) as { workspaces?: string[] };
  const found: string[] = [];
  for (const pattern of manifest.workspaces ?? []) found.push(...(await expand(root, pattern.split('/'))));
  const withManifest = await Promise.all(
    found.map(async (dir) => ((await isFile(join(dir, 'package.json'))) ? dir : undefined)),
  );
  return withManifest.filter((dir): dir is string => dir !== undefined);
}

async function expand(base: string, segments: readonly string[]): Promise<string[]> {
  const [head, ...rest] = segments;
  if (head === undefined) return [base];
  const names = head === '*' ? await subdirectories(base) : [head];
  const expanded = await Promise.all(names.map((name) => expand(join(base, name), rest)));
  return expanded.flat();
}

async function subdirectories(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isDirectory() && entry.name !== 'node_modules').map((entry) => entry.name);
}

async function isFile(path: string): Promise<boolean> {
  return (await lstat(path).catch(() => undefined))?.isFile() ?? false;
}
