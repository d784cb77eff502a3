import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProjectConfiguration } from 'vitest/config';
import { FILE_TIMEOUTS_SETUP, PROJECT_TIMEOUTS, type ProjectTimeouts } from './file-timeouts';

/**
 * The options a project's `vitest.config.ts` may set and still share a vitest project with others: they hold no path
 * and no code, so they mean the same whichever folder the tests run from.
 */
const SHAREABLE = new Set(['name', 'include', 'testTimeout', 'hookTimeout', 'teardownTimeout']);
/** Shareable options that hold per test file: projects that differ only in these still share a vitest project. */
const PER_FILE = ['testTimeout', 'hookTimeout'] as const;

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
 * cores). Timeouts do not split a project: where its members' differ, a setup file gives each test file its own
 * project's (`file-timeouts-setup.ts`). A config that sets anything beyond the shareable options (a plugin, a setup
 * file, an alias) keeps its own project.
 */
export async function planVitestProjects(
  workspaceRoot: string,
  projectRoots: readonly string[],
): Promise<VitestProjects> {
  const { loadConfigFromFile } = await import('vite');
  const names = new Map<string, string>();
  const failures = new Map<string, string>();
  const own: string[] = [];
  const groups = new Map<
    string,
    { options: Record<string, unknown>; include: string[]; names: string[]; timeouts: ProjectTimeouts[] }
  >();
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
    const perFile: readonly string[] = PER_FILE;
    const options = Object.fromEntries(
      Object.entries(test).filter(([key]) => key !== 'name' && key !== 'include' && !perFile.includes(key)),
    );
    const key = JSON.stringify(Object.entries(options).sort(([a], [b]) => a.localeCompare(b)));
    const group = groups.get(key) ?? { options, include: [], names: [], timeouts: [] };
    group.include.push(...(include as string[]).map((pattern) => posix.join(root, pattern)));
    group.names.push(names.get(root) ?? root);
    group.timeouts.push({
      root: join(workspaceRoot, root),
      ...Object.fromEntries(PER_FILE.flatMap((option) => (test[option] === undefined ? [] : [[option, test[option]]]))),
    });
    groups.set(key, group);
  }
  const shared = [...groups.values()].map(({ options, include, names: members, timeouts }, index) => ({
    test: {
      ...options,
      ...timeoutOptions(timeouts),
      name: `shared-${index + 1} (${members.length} projects)`,
      root: workspaceRoot,
      include,
    },
  }));
  return { projects: [...shared, ...own], names, failures };
}

/**
 * The timeouts of a vitest project its members share: theirs when they all set the same ones, else the setup file that
 * gives each file its own project's, with every member's timeouts provided to it.
 */
function timeoutOptions(members: readonly ProjectTimeouts[]): Record<string, unknown> {
  const [first] = members;
  const { root: _root, ...common } = first ?? { root: '' };
  const same = members.every(
    (member) => member.testTimeout === first?.testTimeout && member.hookTimeout === first?.hookTimeout,
  );
  if (same) return common;
  return {
    setupFiles: [fileURLToPath(FILE_TIMEOUTS_SETUP)],
    provide: { [PROJECT_TIMEOUTS]: members.filter((member) => Object.keys(member).length > 1) },
  };
}
