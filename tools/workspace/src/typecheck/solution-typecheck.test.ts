import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutorContext, TaskGraph } from '@nx/devkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkSolution } from './solution-typecheck';
import { typecheckBatch } from './typecheck-executor';

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

// Each check builds a real TypeScript program; on a loaded 2-core machine that takes seconds, not milliseconds.
describe('type-checking a solution in one process', { timeout: 60_000 }, () => {
  let root: string;
  beforeEach(async () => void (root = await mkdtemp(join(tmpdir(), 'pi-typecheck-'))));
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('checks each project after those it references, and nothing that is up to date', async () => {
    const configs = await writeSolution(root, 'export const answer: number = 21;\n');
    const first = [...checkSolution([configs.usesBase, configs.alone])];
    expect(first.map(({ config, success }) => [config, success])).toEqual([
      [configs.base, true],
      [configs.usesBase, true],
      [configs.alone, true],
    ]);
    expect([...checkSolution([configs.usesBase, configs.alone])]).toEqual([]);
  });

  it('reports a project’s errors with it, and each other project by its own', async () => {
    const configs = await writeSolution(root, "export const answer: number = 'not a number';\n");
    const checked = [...checkSolution([configs.base, configs.usesBase, configs.alone])];
    const base = checked.find((check) => check.config === configs.base);
    expect(base?.success).toBe(false);
    expect(base?.output).toContain("Type 'string' is not assignable to type 'number'");
    expect(checked.filter((check) => check.config !== configs.base).every((check) => check.success)).toBe(true);
  });

  it('answers each task of a batch, the up-to-date ones as passed with nothing to say', async () => {
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
    const results = async () => {
      const all: Record<string, boolean> = {};
      for await (const { task: id, result } of typecheckBatch(taskGraph, {}, {}, context)) all[id] = result.success;
      return all;
    };
    expect(await results()).toEqual({ base: false, uses: true, alone: true });
    await writeFile(join(root, 'base', 'src', 'index.ts'), 'export const answer: number = 21;\n');
    expect(await results()).toEqual({ base: true, uses: true, alone: true });
  });
});
