import { cp, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LintProblem, lintFiles } from './lint-report';
import { linkPackages } from './link-packages';
import { type ToolRun, runTool, tools } from './run-tool';
import { fixturesRoot, workspaceRoot } from './workspace-root';

/** A throwaway Nx workspace in the OS temp folder that lints and builds with the real workspace's tools and rules. */
export interface FixtureWorkspace {
  readonly root: string;
  /** Re-links node_modules after packages were added (what `npm install` does in the real workspace). */
  relink(): Promise<void>;
  /** Runs the real Nx CLI in the fixture. */
  nx(args: readonly string[]): Promise<ToolRun>;
  /** Runs the workspace's formatter, oxfmt, in the fixture (copy `.oxfmtrc.json` in to format as the workspace does). */
  oxfmt(args: readonly string[]): Promise<ToolRun>;
  /** Runs the real oxlint CLI in the fixture; run `nx(['show', 'projects'])` first so the project graph exists. */
  lint(files: readonly string[]): Promise<LintProblem[]>;
  readFile(path: string): Promise<string>;
  writeFile(path: string, content: string): Promise<void>;
  dispose(): Promise<void>;
}

export interface FixtureOptions {
  /** Files or folders of the real workspace to copy into the fixture, e.g. `nx.json` or `libs/kernel`. */
  readonly fromWorkspace?: readonly string[];
}

/**
 * Copies `fixtures/<name>` into a new temp folder and adds what makes it a workspace of the real toolchain: the real
 * tsconfig.base.json, .env and lockfile, a solution tsconfig.json, an .oxlintrc.json that extends the real one (and so
 * the real rules and module-boundary constraints), and linked node_modules.
 */
export async function createFixtureWorkspace(name: string, options: FixtureOptions = {}): Promise<FixtureWorkspace> {
  const root = await realpath(await mkdtemp(join(tmpdir(), `pi-fixture-${name}-`)));
  try {
    await cp(join(fixturesRoot, name), root, { recursive: true });
    for (const path of options.fromWorkspace ?? []) {
      await cp(join(workspaceRoot, path), join(root, path), {
        recursive: true,
        filter: (source) => !/[\\/](node_modules|\.nx|dist|tmp)([\\/]|$)/.test(source.slice(workspaceRoot.length)),
      });
    }
    await inheritDevDependencies(root);
    // The real workspace's Nx environment (plugins in the CLI's process), so each nx command there starts as fast.
    await cp(join(workspaceRoot, '.env'), join(root, '.env'));
    await cp(join(workspaceRoot, 'tsconfig.base.json'), join(root, 'tsconfig.base.json'));
    // The solution whose references `nx sync` keeps (none yet: the fixture's projects come later).
    const solution = { extends: './tsconfig.base.json', files: [], references: [] };
    await writeFile(join(root, 'tsconfig.json'), `${JSON.stringify(solution, null, 2)}\n`);
    const lintConfig = { extends: [join(workspaceRoot, '.oxlintrc.json')] };
    await writeFile(join(root, '.oxlintrc.json'), `${JSON.stringify(lintConfig, null, 2)}\n`);
    await linkPackages(root, workspaceRoot);
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    throw error;
  }
  return {
    root,
    relink: () => linkPackages(root, workspaceRoot),
    nx: (args) => runTool(tools.nx, args, root),
    oxfmt: (args) => runTool(tools.oxfmt, args, root),
    lint: (files) => lintFiles(root, files),
    readFile: (path) => readFile(join(root, path), 'utf-8'),
    writeFile: (path, content) => writeFile(join(root, path), content),
    dispose: () => rm(root, { recursive: true, force: true, maxRetries: 3 }),
  };
}

/**
 * The fixture's package.json declares the real workspace's dev dependencies (linked, not installed), and its lockfile
 * is the real one: Nx knows the tools a target's cache inputs name (oxlint, vitest) only from the lockfile.
 */
async function inheritDevDependencies(root: string): Promise<void> {
  const real = JSON.parse(await readFile(join(workspaceRoot, 'package.json'), 'utf-8')) as {
    devDependencies?: Record<string, string>;
  };
  const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf-8')) as Record<string, unknown>;
  manifest['devDependencies'] = { ...real.devDependencies };
  await writeFile(join(root, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await cp(join(workspaceRoot, 'package-lock.json'), join(root, 'package-lock.json'));
}
