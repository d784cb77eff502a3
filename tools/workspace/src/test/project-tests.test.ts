import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProjectOutcome } from '../project-batch';
import { defaultTestWorkers, runProjectTests } from './project-tests';

// Inside the workspace (its gitignored tmp/), so the fixture's test files resolve `vitest` from its node_modules.
const WORKSPACE = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');

async function project(
  root: string,
  path: string,
  name: string,
  files: Record<string, string>,
  options: Record<string, unknown> = {},
): Promise<void> {
  await mkdir(join(root, path, 'src'), { recursive: true });
  const config = { test: { name, include: ['src/**/*.test.ts'], ...options } };
  await writeFile(join(root, path, 'vitest.config.ts'), `export default ${JSON.stringify(config)};\n`);
  for (const [file, source] of Object.entries(files)) await writeFile(join(root, path, 'src', file), source);
}

const passing = "import { it, expect } from 'vitest';\nit('adds', () => expect(1 + 1).toBe(2));\n";

async function collect(root: string, projects: string[]): Promise<Map<string, ProjectOutcome>> {
  const results = new Map<string, ProjectOutcome>();
  for await (const result of runProjectTests(root, projects, { maxWorkers: 2 })) results.set(result.root, result);
  return results;
}

describe('running the tests of many projects in one vitest instance', () => {
  let root: string;
  beforeEach(async () => {
    await mkdir(join(WORKSPACE, 'tmp'), { recursive: true });
    root = await mkdtemp(join(WORKSPACE, 'tmp', 'project-tests-'));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('reports each project by its own files, a failing test with its name and error, and the Tests totals', async () => {
    await project(root, 'green', '@t/green', { 'a.test.ts': passing, 'b.test.ts': passing });
    await project(root, 'red', '@t/red', {
      'c.test.ts': `${passing}it('compares', () => expect('actual').toBe('expected'));\n`,
    });
    const results = await collect(root, ['green', 'red']);

    expect(results.get('green')?.success).toBe(true);
    expect(results.get('green')?.output).toContain('✓ |@t/green| src/a.test.ts (1 test)');
    expect(results.get('green')?.output).toMatch(/Tests {2}2 passed \(2\)/);
    expect(results.get('green')?.output).not.toContain('c.test.ts');

    const red = results.get('red');
    expect(red?.success).toBe(false);
    expect(red?.output).toContain('× compares');
    expect(red?.output).toContain("expected 'actual' to be 'expected'");
    expect(red?.output).toMatch(/Tests {2}1 failed \| 1 passed \(2\)/);
  });

  it('gives the files of a project inside another project to the inner one alone', async () => {
    await project(root, 'outer', '@t/outer', { 'a.test.ts': passing });
    await project(root, 'outer/inner', '@t/inner', { 'b.test.ts': passing });
    const results = await collect(root, ['outer', 'outer/inner']);
    expect(results.get('outer')?.output).not.toContain('b.test.ts');
    expect(results.get('outer/inner')?.output).toContain('src/b.test.ts');
  });

  it('fails a file that does not import, and a project with no test files, as vitest run would', async () => {
    await project(root, 'broken', '@t/broken', { 'a.test.ts': "import './missing';\n" });
    await project(root, 'empty', '@t/empty', {});
    const results = await collect(root, ['broken', 'empty']);
    expect(results.get('broken')?.success).toBe(false);
    expect(results.get('broken')?.output).toContain('missing');
    expect(results.get('empty')).toMatchObject({
      success: false,
      output: expect.stringContaining('No test files found'),
    });
  });

  it('fails the project whose file left an unhandled rejection behind, and only that one', async () => {
    await project(root, 'leaky', '@t/leaky', {
      'a.test.ts': "import { it } from 'vitest';\nit('starts', () => void Promise.reject(new Error('left behind')));\n",
    });
    await project(root, 'fine', '@t/fine', { 'b.test.ts': passing });
    const results = await collect(root, ['leaky', 'fine']);
    expect(results.get('leaky')).toMatchObject({ success: false, output: expect.stringContaining('left behind') });
    expect(results.get('fine')?.success).toBe(true);
  });

  it('fails a project whose config does not load, saying why, and still runs the others', async () => {
    await project(root, 'fine', '@t/fine', { 'a.test.ts': passing });
    await mkdir(join(root, 'bad'), { recursive: true });
    await writeFile(join(root, 'bad', 'vitest.config.ts'), 'export default {;\n');
    const results = await collect(root, ['fine', 'bad']);
    expect(results.get('fine')?.success).toBe(true);
    expect(results.get('bad')?.success).toBe(false);
    expect(results.get('bad')?.output).toContain(join('bad', 'vitest.config.ts'));
  });

  it('fails a project whose describe block failed in beforeAll, though its tests were only skipped', async () => {
    await project(root, 'hooked', '@t/hooked', {
      'a.test.ts':
        "import { beforeAll, describe, expect, it } from 'vitest';\n" +
        "describe('a group', () => {\n  beforeAll(() => { throw new Error('setup broke'); });\n" +
        "  it('never runs', () => expect(1).toBe(1));\n});\n" +
        "it('outside the group', () => expect(1).toBe(1));\n",
    });
    const results = await collect(root, ['hooked']);
    expect(results.get('hooked')).toMatchObject({ success: false, output: expect.stringContaining('setup broke') });
  });

  it("keeps each project's own timeouts when projects share a vitest project", async () => {
    const slow = "import { it } from 'vitest';\nit('waits', () => new Promise((done) => setTimeout(done, 300)));\n";
    await project(root, 'patient', '@t/patient', { 'a.test.ts': slow });
    await project(root, 'also-patient', '@t/also-patient', { 'b.test.ts': slow });
    await project(root, 'hasty', '@t/hasty', { 'c.test.ts': slow }, { testTimeout: 100 });
    const slowHook =
      "import { beforeAll, it } from 'vitest';\nbeforeAll(() => new Promise((done) => setTimeout(done, 300)));\nit('runs', () => {});\n";
    await project(root, 'hasty-hooks', '@t/hasty-hooks', { 'd.test.ts': slowHook }, { hookTimeout: 100 });
    await project(root, 'patient-hooks', '@t/patient-hooks', { 'e.test.ts': slowHook }, { testTimeout: 60_000 });
    const results = await collect(root, ['patient', 'also-patient', 'hasty', 'hasty-hooks', 'patient-hooks']);
    expect(results.get('patient')?.success).toBe(true);
    expect(results.get('also-patient')?.success).toBe(true);
    expect(results.get('hasty')).toMatchObject({ success: false, output: expect.stringContaining('Test timed out') });
    expect(results.get('hasty')?.output).toContain('src/c.test.ts');
    expect(results.get('hasty-hooks')).toMatchObject({
      success: false,
      output: expect.stringContaining('Hook timed out'),
    });
    expect(results.get('patient-hooks')?.success).toBe(true);
  });
});

describe('test files run at once by default', () => {
  it('are one more than the cores, so a core is not idle while a file waits on a program it started', () => {
    expect(defaultTestWorkers(1)).toBe(2);
    expect(defaultTestWorkers(2)).toBe(3);
    expect(defaultTestWorkers(16)).toBe(17);
  });
});
