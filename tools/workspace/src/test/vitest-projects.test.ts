import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FILE_TIMEOUTS_SETUP, PROJECT_TIMEOUTS, type ProjectTimeouts, timeoutsOfFile } from './file-timeouts';
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
    await config('tools/c', plain('@t/c', ', teardownTimeout: 60_000'));
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
          teardownTimeout: 60_000,
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

  it('shares a vitest project between projects that differ only in timeouts, each file keeping its own', async () => {
    await config('libs/a', plain('@t/a', ', testTimeout: 60_000'));
    await config('libs/b', plain('@t/b', ', testTimeout: 60_000'));
    expect((await planVitestProjects(root, ['libs/a', 'libs/b'])).projects).toEqual([
      { test: expect.objectContaining({ name: 'shared-1 (2 projects)', testTimeout: 60_000 }) },
    ]);

    await config('tools/c', plain('@t/c', ', testTimeout: 120_000, hookTimeout: 480_000'));
    await config('libs/d', plain('@t/d'));
    const plan = await planVitestProjects(root, ['libs/a', 'tools/c', 'libs/d']);
    expect(plan.projects).toEqual([
      {
        test: {
          name: 'shared-1 (3 projects)',
          root,
          include: expect.arrayContaining([
            'libs/a/src/**/*.test.ts',
            'tools/c/src/**/*.test.ts',
            'libs/d/src/**/*.test.ts',
          ]),
          setupFiles: [fileURLToPath(FILE_TIMEOUTS_SETUP)],
          provide: {
            [PROJECT_TIMEOUTS]: [
              { root: join(root, 'libs/a'), testTimeout: 60_000 },
              { root: join(root, 'tools/c'), testTimeout: 120_000, hookTimeout: 480_000 },
            ],
          },
        },
      },
    ]);
    const { provide } = (plan.projects[0] as { test: { provide: Record<string, ProjectTimeouts[]> } }).test;
    const timeouts = provide[PROJECT_TIMEOUTS] ?? [];
    expect(timeoutsOfFile(timeouts, join(root, 'tools/c/test/slow.test.ts'))).toEqual({
      testTimeout: 120_000,
      hookTimeout: 480_000,
    });
    expect(timeoutsOfFile(timeouts, join(root, 'libs/a/src/a.test.ts'))).toEqual({ testTimeout: 60_000 });
    expect(timeoutsOfFile(timeouts, join(root, 'libs/d/src/d.test.ts'))).toEqual({});
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
