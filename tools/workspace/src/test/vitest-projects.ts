import { join, posix } from 'node:path';
import type { TestProjectConfiguration } from 'vitest/config';

/**
 * The options a project's `vitest.config.ts` may set and still share a vitest project with others: they hold no path
 * and no code, so they mean the same whichever folder the tests run from.
 */
const SHAREABLE = new Set(['name', 'include', 'testTimeout', 'hookTimeout', 'teardownTimeout']);

/** The vitest projects that run the tests of the Nx projects at some roots, and what each Nx project is called. */
export interface VitestProjects {
  readonly projects: TestProjectConfiguration[];
  /** The `test.name` of each root's config, by root. */
  readonly names: ReadonlyMap<string, string>;
  /** Roots whose config could not be loaded, with the reason; their tests are not run. */
  readonly failures: ReadonlyMap<string, string>;
}

/**
 * Plans one vitest project per set of equal options instead of one per Nx project. Each vitest project has its own
 * Vite server and workers, so 70 of them transformed and imported the modules every project shares 70 times; merged,
 * a worker imports them once for the files of many projects (the tests of the 57 plain projects: 224 s → 153 s on 2
 * cores). A config that sets anything beyond the shareable options (a plugin, a setup file, an alias) keeps its own
 * project.
 */
export async function planVitestProjects(
  workspaceRoot: string,
  projectRoots: readonly string[],
): Promise<VitestProjects> {
  const { loadConfigFromFile } = await import('vite');
  const names = new Map<string, string>();
  const failures = new Map<string, string>();
  const own: string[] = [];
  const groups = new Map<string, { options: Record<string, unknown>; include: string[]; names: string[] }>();
  const loaded = await Promise.all(
    projectRoots.map(async (root) => {
      const file = join(workspaceRoot, root, 'vitest.config.ts');
      try {
        const result = await loadConfigFromFile({ command: 'serve', mode: 'test' }, file, workspaceRoot, 'silent');
        return { root, file, config: (result?.config ?? {}) as Record<string, unknown> };
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        return { root, file, error: `${file} could not be loaded: ${reason}` };
      }
    }),
  );
  for (const { root, file, config, error } of loaded) {
    if (config === undefined) {
      failures.set(root, error ?? file);
      continue;
    }
    const test = (config['test'] ?? {}) as Record<string, unknown>;
    names.set(root, typeof test['name'] === 'string' ? test['name'] : root);
    const include = test['include'];
    const shareable =
      Object.keys(config).every((key) => key === 'test') &&
      Object.keys(test).every((key) => SHAREABLE.has(key)) &&
      Array.isArray(include) &&
      include.every((pattern) => typeof pattern === 'string' && !pattern.startsWith('.') && !pattern.startsWith('/'));
    if (!shareable) {
      own.push(file);
      continue;
    }
    const options = Object.fromEntries(Object.entries(test).filter(([key]) => key !== 'name' && key !== 'include'));
    const key = JSON.stringify(Object.entries(options).sort(([a], [b]) => a.localeCompare(b)));
    const group = groups.get(key) ?? { options, include: [], names: [] };
    group.include.push(...(include as string[]).map((pattern) => posix.join(root, pattern)));
    group.names.push(names.get(root) ?? root);
    groups.set(key, group);
  }
  const shared = [...groups.values()].map(({ options, include, names: members }, index) => ({
    test: { ...options, name: `shared-${index + 1} (${members.length} projects)`, root: workspaceRoot, include },
  }));
  return { projects: [...shared, ...own], names, failures };
}
