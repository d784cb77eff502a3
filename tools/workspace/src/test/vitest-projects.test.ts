import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { planVitestProjects } from './vitest-projects';

describe('planning the vitest projects of many Nx projects', () => {
  let root: string;
  beforeEach(async () => (root = await mkdtemp(join(tmpdir(), 'vitest-projects-'))));
  afterEach(() => rm(root, { recursive: true, force: true }));

  async function config(path: string, source: string): Promise<void> {
    await mkdir(join(root, path), { recursive: true });
    await writeFile(join(root, path, 'vitest.config.ts'), source);
  }
  const plain = (name: string, extra = '') =>
    `export default { test: { name: '${name}', include: ['src/**/*.test.ts', 'test/**/*.test.ts']${extra} } };\n`;

  it('puts projects with equal options in one vitest project, their patterns under their roots', async () => {
    await config('libs/a', plain('@t/a'));
    await config('libs/b', plain('@t/b'));
    await config('tools/c', plain('@t/c', ', testTimeout: 60_000'));
    const plan = await planVitestProjects(root, ['libs/a', 'libs/b', 'tools/c']);
    expect(plan.projects).toEqual([
      {
        test: {
          name: 'shared-1 (2 projects)',
          root,
          include: [
            'libs/a/src/**/*.test.ts',
            'libs/a/test/**/*.test.ts',
            'libs/b/src/**/*.test.ts',
            'libs/b/test/**/*.test.ts',
          ],
        },
      },
      {
        test: {
          name: 'shared-2 (1 projects)',
          root,
          testTimeout: 60_000,
          include: ['tools/c/src/**/*.test.ts', 'tools/c/test/**/*.test.ts'],
        },
      },
    ]);
    expect(plan.names).toEqual(
      new Map([
        ['libs/a', '@t/a'],
        ['libs/b', '@t/b'],
        ['tools/c', '@t/c'],
      ]),
    );
  });

  it('keeps a config with a setup file, a plugin or a relative pattern as its own project', async () => {
    await config('setup', plain('@t/setup', ", setupFiles: ['./setup.ts']"));
    await config(
      'plugin',
      "export default { plugins: [], test: { name: '@t/plugin', include: ['src/*.test.ts'] } };\n",
    );
    await config('relative', "export default { test: { name: '@t/relative', include: ['./src/*.test.ts'] } };\n");
    const plan = await planVitestProjects(root, ['setup', 'plugin', 'relative']);
    expect(plan.projects).toEqual(['setup', 'plugin', 'relative'].map((dir) => join(root, dir, 'vitest.config.ts')));
  });

  it('names a config that does not load, with the reason, and plans the rest', async () => {
    await config('fine', plain('@t/fine'));
    await config('broken', 'export default {;\n');
    const plan = await planVitestProjects(root, ['fine', 'broken']);
    expect(plan.projects).toHaveLength(1);
    expect(plan.failures.get('broken')).toContain(join(root, 'broken', 'vitest.config.ts'));
    expect(plan.names.has('broken')).toBe(false);
  });
});
