import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ZOD_VERSION } from './package-manifest';

const root = fileURLToPath(new URL('../../../../', import.meta.url));

interface PackageJson {
  name?: string;
  version?: string;
  workspaces?: string[];
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

const readPackage = (folder: string) => JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as PackageJson;

/** The folders the root's `workspaces` globs match (`*` segments only, as the workspace uses). */
function workspaceFolders(): string[] {
  const expand = (base: string, segments: readonly string[]): string[] => {
    const [head, ...rest] = segments;
    if (head === undefined) return existsSync(join(base, 'package.json')) ? [base] : [];
    const names =
      head === '*'
        ? readdirSync(base, { withFileTypes: true })
            .filter((entry) => entry.isDirectory() && entry.name !== 'node_modules')
            .map((entry) => entry.name)
        : [head];
    return names.flatMap((name) => expand(join(base, name), rest));
  };
  return (readPackage(root).workspaces ?? []).flatMap((pattern) => expand(root, pattern.split('/')));
}

describe('the versions generated packages pin', () => {
  it('pins zod as every workspace package does, @pi/plugin-api included, and as installed', () => {
    const pins = workspaceFolders().flatMap((folder) => {
      const manifest = readPackage(folder);
      const zod = manifest.dependencies?.['zod'] ?? manifest.devDependencies?.['zod'];
      return zod === undefined ? [] : [`${manifest.name}: ${zod}`];
    });
    expect(pins).toContain(`@pi/plugin-api: ${ZOD_VERSION}`);
    expect(pins.filter((pin) => !pin.endsWith(`: ${ZOD_VERSION}`))).toEqual([]);
    expect(readPackage(join(root, 'node_modules', 'zod')).version).toBe(ZOD_VERSION);
  });
});
