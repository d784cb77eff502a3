import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CreateNodesContextV2, Task } from '@nx/devkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { innermostRoot, merged, taskResults } from './project-batch';
import { inferTarget } from './project-targets';

describe('a batch answered project by project', () => {
  it('gives a file to the innermost project root holding it, and none to a root that is only a prefix', () => {
    const roots = ['libs/a', 'libs/a/inner', 'libs/ab'];
    expect(innermostRoot(roots, 'libs/a/inner/src/x.ts')).toBe('libs/a/inner');
    expect(innermostRoot(roots, 'libs/a/src/x.ts')).toBe('libs/a');
    expect(innermostRoot(roots, 'libs/abc/src/x.ts')).toBeUndefined();
  });

  it('answers every task of a project with its outcome, in the order the outcomes come', async () => {
    const task = (id: string, projectRoot: string) => ({ id, projectRoot }) as Task;
    const tasks = [task('a', 'libs/a'), task('b', 'libs/b'), task('again', 'libs/a')];
    const outcomes = [
      { root: 'libs/b', success: false, output: 'b failed' },
      { root: 'libs/a', success: true, output: '' },
    ];
    const answered = [];
    for await (const { task: id, result } of taskResults(tasks, outcomes)) answered.push([id, result.success]);
    expect(answered).toEqual([
      ['b', false],
      ['a', true],
      ['again', true],
    ]);
  });

  it('merges the answers of tools running side by side in the order they come, and ends when all have', async () => {
    const gate = () => {
      let resolve: (() => void) | undefined;
      const promise = new Promise<void>((done) => (resolve = done));
      return { promise, resolve: () => resolve?.() };
    };
    const gates = { lint: gate(), test: gate() };
    async function* tool(name: 'lint' | 'test', first: string, second: string) {
      yield `${name} ${first}`;
      await gates[name].promise;
      yield `${name} ${second}`;
    }
    const answers: string[] = [];
    for await (const answer of merged([tool('lint', 'a', 'b'), tool('test', 'a', 'b')])) {
      answers.push(answer);
      if (answers.length === 2) gates.test.resolve();
      if (answers.length === 3) gates.lint.resolve();
    }
    expect(answers).toEqual(['lint a', 'test a', 'test b', 'lint b']);
  });

  it('merges nothing into nothing', async () => {
    const answers = [];
    for await (const answer of merged([])) answers.push(answer);
    expect(answers).toEqual([]);
  });
});

describe('a target inferred from a config file', () => {
  let root: string;
  beforeEach(async () => void (root = await mkdtemp(join(tmpdir(), 'pi-infer-'))));
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('goes to each folder with the file beside a package.json, never to the workspace root', async () => {
    for (const folder of ['libs/a', 'libs/no-package']) await mkdir(join(root, folder), { recursive: true });
    await writeFile(join(root, 'libs/a/package.json'), '{}');
    const [, createNodes] = inferTarget('vitest.config.ts', 'test', (workspaceRoot) => ({
      executor: 'x:test',
      options: { workspaceRoot },
    }));
    const results = await createNodes(
      ['vitest.config.ts', 'libs/a/vitest.config.ts', 'libs/no-package/vitest.config.ts'],
      undefined,
      { workspaceRoot: root } as CreateNodesContextV2,
    );
    expect(results).toEqual([
      [
        'libs/a/vitest.config.ts',
        { projects: { 'libs/a': { targets: { test: { executor: 'x:test', options: { workspaceRoot: root } } } } } },
      ],
    ]);
  });
});
