import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkFormatting } from './formatting';

const WORKSPACE_ROOT = join(import.meta.dirname, '..', '..', '..', '..');

describe('the format check', () => {
  // A workspace of its own (the real one's .gitignore would hide a folder inside it), with the real one's oxfmt.
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'pi-format-check-'));
    await mkdir(join(root, 'node_modules'));
    await symlink(join(WORKSPACE_ROOT, 'node_modules', 'oxfmt'), join(root, 'node_modules', 'oxfmt'));
    await writeFile(join(root, 'package.json'), `${JSON.stringify({ name: 'fixture', private: true }, null, 2)}\n`);
    await writeFile(
      join(root, '.oxfmtrc.json'),
      `${JSON.stringify({ singleQuote: true, printWidth: 120 }, null, 2)}\n`,
    );
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('passes a workspace formatted as its config says, for every root asked about', async () => {
    await writeFile(join(root, 'a.ts'), "export const greeting = 'hello';\n");
    const outcomes = await checkFormatting(root, ['libs/a', 'libs/b']);
    expect(outcomes.map(({ root, success }) => ({ root, success }))).toEqual([
      { root: 'libs/a', success: true },
      { root: 'libs/b', success: true },
    ]);
  });

  it('fails on a file formatted otherwise and names it', async () => {
    await writeFile(join(root, 'good.ts'), "export const greeting = 'hello';\n");
    await writeFile(join(root, 'bad.ts'), 'export const greeting  =  "hello"\n');
    const [outcome] = await checkFormatting(root, ['libs/a']);
    expect(outcome?.success).toBe(false);
    expect(outcome?.output).toContain('bad.ts');
    expect(outcome?.output).not.toContain('good.ts');
  });

  it('fails on a file it cannot parse and says where', async () => {
    await writeFile(join(root, 'broken.ts'), 'export const = ;\n');
    const [outcome] = await checkFormatting(root, ['libs/a']);
    expect(outcome?.success).toBe(false);
    expect(outcome?.output).toContain('broken.ts');
  });
});
