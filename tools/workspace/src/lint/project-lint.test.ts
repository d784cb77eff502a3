import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OxlintDiagnostic } from './oxlint-report';
import { diagnosticsByProject, lintProjects } from './project-lint';

const workspacePlugin = fileURLToPath(new URL('./oxlint-plugin.js', import.meta.url));

// A scratch workspace with a config of its own: what is under test is the run and the report per project (the
// workspace's rules are tested in workspace-config.test.ts and, with Nx's project graph, in @pi/workspace-tests).
const scratchConfig = {
  plugins: ['typescript'],
  jsPlugins: [workspacePlugin],
  categories: { correctness: 'off' },
  rules: { 'pi/no-export-all': 'error', 'typescript/no-non-null-assertion': 'warn' },
};

describe('linting projects in one oxlint run', () => {
  let scratch: string;
  beforeEach(async () => {
    scratch = await realpath(await mkdtemp(join(tmpdir(), 'pi-lint-')));
    await writeFile(join(scratch, '.oxlintrc.json'), JSON.stringify(scratchConfig));
    await mkdir(join(scratch, 'outer', 'inner', 'src'), { recursive: true });
    await mkdir(join(scratch, 'outer', 'src'), { recursive: true });
  });
  afterEach(() => rm(scratch, { recursive: true, force: true }));

  it('gives each project the report of its own files, an inner project’s files to it alone', async () => {
    await writeFile(join(scratch, 'outer', 'src', 'clean.ts'), 'export const clean = 1;\n');
    await writeFile(join(scratch, 'outer', 'inner', 'src', 'bad.ts'), "export * from './clean';\n");
    const linted = await lintProjects(scratch, ['outer', join('outer', 'inner')]);
    expect(linted).toContainEqual({ root: 'outer', success: true, output: '' });
    const inner = linted.find(({ root }) => root === join('outer', 'inner'));
    expect(inner?.success).toBe(false);
    expect(inner?.output).toContain(join('outer', 'inner', 'src', 'bad.ts'));
    expect(inner?.output).toMatch(
      /1:1 +error +Export by name from a public index \(no export \*\)\. +pi\(no-export-all\)/,
    );
  });

  it('passes a project with warnings only, and shows them', async () => {
    await writeFile(join(scratch, 'outer', 'src', 'asserts.ts'), 'export const value = [1].at(0)!;\n');
    const [outer] = await lintProjects(scratch, ['outer']);
    expect(outer?.success).toBe(true);
    expect(outer?.output).toContain('warning');
  });

  it('fails a project with a file that does not parse, naming it', async () => {
    await writeFile(join(scratch, 'outer', 'src', 'broken.ts'), 'export const = ;\n');
    const [outer] = await lintProjects(scratch, ['outer']);
    expect(outer?.success).toBe(false);
    expect(outer?.output).toContain(join('outer', 'src', 'broken.ts'));
  });

  it('fails every project when oxlint finds nothing to lint, saying so', async () => {
    const linted = await lintProjects(scratch, ['missing', 'outer']);
    expect(linted.map(({ success }) => success)).toEqual([false, false]);
    expect(linted[0]?.output).toMatch(/No files found|no files/);
  });

  it('fails every project when the config is broken, saying why', async () => {
    await writeFile(join(scratch, 'outer', 'src', 'clean.ts'), 'export const clean = 1;\n');
    await writeFile(join(scratch, '.oxlintrc.json'), JSON.stringify({ rules: { 'no-such-rule': 'error' } }));
    const [outer] = await lintProjects(scratch, ['outer']);
    expect(outer?.success).toBe(false);
    expect(outer?.output).toContain("Rule 'no-such-rule' not found");
  });
});

describe('giving diagnostics to projects', () => {
  const at = (filename?: string): OxlintDiagnostic => ({ message: 'm', severity: 'error', labels: [], filename });

  it('gives a file’s to the innermost project holding it, a problem of no file to every project, the rest to none', () => {
    const [outer, inner, vanished, elsewhere] = [at('a/x.ts'), at('a/b/y.ts'), at(undefined), at('c/z.ts')];
    const grouped = diagnosticsByProject(['a', 'a/b'], [outer, inner, vanished, elsewhere]);
    expect(grouped).toEqual(
      new Map([
        ['a', [outer, vanished]],
        ['a/b', [inner, vanished]],
      ]),
    );
  });
});
