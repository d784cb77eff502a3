import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ExecutorContext, TaskGraph } from '@nx/devkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildArguments, checkSolution } from './solution-typecheck';
import { checkBatch } from '../check/check-executor';

// Inside the workspace (its gitignored tmp/), so the compiler resolves from the workspace's node_modules.
const WORKSPACE = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');

/** A solution of three projects: `base`, `uses-base` referencing it, and `alone`. */
async function writeSolution(
  root: string,
  baseSource: string,
): Promise<{ base: string; usesBase: string; alone: string }> {
  const project = async (name: string, source: string, references: string[]) => {
    await mkdir(join(root, name, 'src'), { recursive: true });
    await writeFile(join(root, name, 'src', 'index.ts'), source);
    const compilerOptions = {
      composite: true,
      declaration: true,
      emitDeclarationOnly: true,
      strict: true,
      module: 'ESNext',
      moduleResolution: 'Bundler',
      types: [],
      // The smallest standard library keeps each check quick; the DOM declarations alone take seconds to parse.
      lib: ['es2022'],
      skipLibCheck: true,
      outDir: `../out/${name}`,
      tsBuildInfoFile: `../out/${name}/tsconfig.tsbuildinfo`,
    };
    const config = { compilerOptions, include: ['src/**/*.ts'], references: references.map((path) => ({ path })) };
    await writeFile(join(root, name, 'tsconfig.json'), JSON.stringify(config));
    return join(root, name, 'tsconfig.json');
  };
  return {
    base: await project('base', baseSource, []),
    usesBase: await project(
      'uses-base',
      "import { answer } from '../../base/src/index';\nexport const twice: number = answer * 2;\n",
      ['../base'],
    ),
    alone: await project('alone', 'export const alone = 1;\n', []),
  };
}

// Each check runs the real compiler; on a loaded 2-core machine that takes seconds, not milliseconds.
describe('type-checking a solution with one tsc --build', { timeout: 60_000 }, () => {
  let root: string;
  beforeEach(async () => {
    await mkdir(join(WORKSPACE, 'tmp'), { recursive: true });
    root = await mkdtemp(join(WORKSPACE, 'tmp', 'typecheck-'));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  const buildInfo = (name: string) => join(root, 'out', name, 'tsconfig.tsbuildinfo');

  it('checks each project after those it references, and does not check again what is up to date', async () => {
    await writeSolution(root, 'export const answer: number = 21;\n');
    expect(await checkSolution(root, ['uses-base', 'alone'])).toEqual([
      { root: 'uses-base', success: true, output: '' },
      { root: 'alone', success: true, output: '' },
    ]);
    // The referenced project was built first, though no task asked for it.
    const built = (await stat(buildInfo('base'))).mtimeMs;
    const checked = (await stat(buildInfo('uses-base'))).mtimeMs;
    expect(await checkSolution(root, ['uses-base', 'alone'])).toEqual([
      { root: 'uses-base', success: true, output: '' },
      { root: 'alone', success: true, output: '' },
    ]);
    expect((await stat(buildInfo('base'))).mtimeMs).toBe(built);
    expect((await stat(buildInfo('uses-base'))).mtimeMs).toBe(checked);
  });

  it.each([
    ['on its parallel checkers', {}],
    ['on one thread', { singleThreaded: true }],
  ])('reports a project’s errors with it, and each other project by its own (%s)', async (_threads, options) => {
    await writeSolution(root, "export const answer: number = 'not a number';\n");
    const [base, usesBase, alone] = await checkSolution(root, ['base', 'uses-base', 'alone'], options);
    expect(base?.success).toBe(false);
    expect(base?.output).toContain("Type 'string' is not assignable to type 'number'");
    expect(base?.output).toContain(join('base', 'src', 'index.ts'));
    expect(base?.output).not.toContain('Found 1 error');
    expect([usesBase?.success, alone?.success]).toEqual([true, true]);
  });

  it('asks the compiler for one thread only when told to (beside the other tools of a batch)', () => {
    expect(buildArguments(['a/tsconfig.json'])).toEqual(['--build', 'a/tsconfig.json', '--pretty']);
    expect(buildArguments(['a/tsconfig.json'], { singleThreaded: true })).toEqual([
      '--build',
      'a/tsconfig.json',
      '--pretty',
      '--singleThreaded',
    ]);
  });

  it('fails the projects checked when a project they reference, outside the run, has errors, and says which', async () => {
    await writeSolution(root, "export const answer: number = 'not a number';\n");
    const [usesBase] = await checkSolution(root, ['uses-base']);
    expect(usesBase?.success).toBe(false);
    expect(usesBase?.output).toContain(join('base', 'src', 'index.ts'));
  });

  it('fails a project whose tsconfig.json is missing, with what the compiler said', async () => {
    const [missing] = await checkSolution(root, ['nowhere']);
    expect(missing?.success).toBe(false);
    expect(missing?.output).toMatch(/nowhere.*tsconfig\.json/);
  });

  it('answers each task of a batch of the workspace checks', async () => {
    await writeSolution(root, "export const answer: number = 'not a number';\n");
    const task = (id: string, projectRoot: string) => ({
      id,
      projectRoot,
      target: { project: id, target: 'typecheck' },
    });
    const taskGraph = {
      tasks: { base: task('base', 'base'), uses: task('uses', 'uses-base'), alone: task('alone', 'alone') },
      dependencies: { base: [], uses: ['base'], alone: [] },
      roots: ['base', 'alone'],
    } as unknown as TaskGraph;
    const context = { root } as ExecutorContext;
    const inputs = {
      base: { check: 'typecheck' },
      uses: { check: 'typecheck' },
      alone: { check: 'typecheck' },
    } as const;
    const results = async () => {
      const all: Record<string, boolean> = {};
      for await (const { task: id, result } of checkBatch(taskGraph, inputs, {}, context)) all[id] = result.success;
      return all;
    };
    expect(await results()).toEqual({ base: false, uses: true, alone: true });
    await writeFile(join(root, 'base', 'src', 'index.ts'), 'export const answer: number = 21;\n');
    expect(await results()).toEqual({ base: true, uses: true, alone: true });
  });
});
