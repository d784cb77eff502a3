import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OxlintDiagnostic } from './oxlint-report';
import { lintFolders } from './project-lint';

// The rules run in the real oxlint over files of a scratch folder (oxlint's RuleTester needs Node 22).
const plugin = fileURLToPath(new URL('./oxlint-plugin.js', import.meta.url));
const config = {
  plugins: [],
  jsPlugins: [plugin],
  categories: { correctness: 'off' },
  rules: { 'pi/no-export-all': 'error', 'pi/no-octal': 'error' },
};

const cases = {
  'named-exports.ts': "export { a, b } from './a';\nexport type { A } from './a';\nexport const c = 1;\n",
  'export-all.ts': "export * from './a';\n",
  'export-all-as.ts': "export * as a from './a';\n",
  'export-type-all.ts': "export type * from './a';\n",
  // Only a script can hold such a literal (a module does not parse): a TypeScript file without imports or exports.
  'numbers.ts': "const numbers = [0o71, 0, 0.5, 0x1f, 1e3, '071'];\nconsole.log(numbers);\n",
  'octal.ts': 'const octal = 071;\nconsole.log(octal);\n',
  'leading-zero.ts': 'const decimal = 09;\nconsole.log(decimal);\n',
};

describe("the workspace's own oxlint rules", () => {
  let scratch: string;
  let diagnostics: readonly OxlintDiagnostic[];
  const problemsIn = (file: string) => diagnostics.filter((d) => d.filename === file).map((d) => [d.code, d.message]);

  beforeAll(async () => {
    scratch = await realpath(await mkdtemp(join(tmpdir(), 'pi-lint-rules-')));
    await writeFile(join(scratch, '.oxlintrc.json'), JSON.stringify(config));
    for (const [file, source] of Object.entries(cases)) await writeFile(join(scratch, file), source);
    const report = await lintFolders(scratch, ['.']);
    if (!report.linted) throw new Error(report.failure);
    diagnostics = report.diagnostics;
  });
  afterAll(() => rm(scratch, { recursive: true, force: true }));

  const exportAll = ['pi(no-export-all)', 'Export by name from a public index (no export *).'];
  it('pi/no-export-all refuses export * in every form, and passes exports by name', () => {
    expect(problemsIn('export-all.ts')).toEqual([exportAll]);
    expect(problemsIn('export-all-as.ts')).toEqual([exportAll]);
    expect(problemsIn('export-type-all.ts')).toEqual([exportAll]);
    expect(problemsIn('named-exports.ts')).toEqual([]);
  });

  const octal = ['pi(no-octal)', 'Octal literals should not be used.'];
  it('pi/no-octal refuses a number written with a leading zero, as ESLint’s no-octal does', () => {
    expect(problemsIn('octal.ts')).toEqual([octal]);
    expect(problemsIn('leading-zero.ts')).toEqual([octal]);
    expect(problemsIn('numbers.ts')).toEqual([]);
  });
});
