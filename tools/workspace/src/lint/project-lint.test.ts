import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lintProjects } from './project-lint';

const workspaceRoot = fileURLToPath(new URL('../../../../', import.meta.url));

describe('linting projects in one ESLint run', () => {
  let scratch: string;
  beforeEach(async () => {
    await mkdir(join(workspaceRoot, 'tmp'), { recursive: true });
    scratch = await mkdtemp(join(workspaceRoot, 'tmp', 'lint-'));
  });
  afterEach(() => rm(scratch, { recursive: true, force: true }));

  it('gives each project the report of its own files, an inner project’s files to it alone', async () => {
    const outer = relative(workspaceRoot, scratch);
    const inner = join(outer, 'inner');
    await mkdir(join(scratch, 'inner', 'src'), { recursive: true });
    await mkdir(join(scratch, 'src'), { recursive: true });
    await writeFile(join(scratch, 'src', 'clean.ts'), 'export const clean = 1;\n');
    await writeFile(join(scratch, 'inner', 'src', 'bad.ts'), "export * from './clean';\n");
    const linted = await lintProjects(workspaceRoot, [outer, inner]);
    expect(linted).toContainEqual({ root: outer, success: true, output: '' });
    expect(linted.find(({ root }) => root === inner)?.success).toBe(false);
    expect(linted.find(({ root }) => root === inner)?.output).toContain(
      'Export by name from a public index (no export *)',
    );
  });

  it('fails every project when ESLint cannot run at all, saying why', async () => {
    const linted = await lintProjects(workspaceRoot, [relative(workspaceRoot, join(scratch, 'missing'))]);
    const [only] = linted;
    expect(only?.success).toBe(false);
    expect(only?.output).toMatch(/No files matching|missing/);
  });
});
