import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, tempWorkspace } from '../test/temp-workspace';
import { grepTool } from './grep-tool';

async function project() {
  const workspace = await tempWorkspace();
  await workspace.files({
    '.gitignore': 'build/\n',
    'src/a.ts': 'const a = 1; // TODO: rename\nexport { a };\n',
    'src/b.md': 'nothing here\n- [ ] todo list\n',
    'build/out.js': '// TODO generated\n',
    'image.bin': new Uint8Array([0x54, 0x4f, 0x44, 0x4f, 0x00]),
  });
  return workspace;
}

describe('the grep tool', () => {
  it('returns path:line:text for each matching line, skipping ignored and binary files', async () => {
    const workspace = await project();
    const result = await run(grepTool(workspace.cwd), { pattern: 'TODO' });
    expect(result.text).toBe('src/a.ts:1:const a = 1; // TODO: rename');
    expect(result.details).toEqual({ path: '.', pattern: 'TODO', count: 1, truncated: false, notice: null });
  });

  it('matches a regular expression, case-insensitively when asked', async () => {
    const workspace = await project();
    const grep = grepTool(workspace.cwd);
    expect((await run(grep, { pattern: 'to+do', ignoreCase: true })).text).toBe(
      'src/a.ts:1:const a = 1; // TODO: rename\nsrc/b.md:2:- [ ] todo list',
    );
    expect((await run(grep, { pattern: '[ ]', literal: true })).text).toBe('src/b.md:2:- [ ] todo list');
  });

  it('narrows by path and glob', async () => {
    const workspace = await project();
    const grep = grepTool(workspace.cwd);
    expect((await run(grep, { pattern: 'o', glob: '*.md' })).text).toBe(
      'src/b.md:1:nothing here\nsrc/b.md:2:- [ ] todo list',
    );
    expect((await run(grep, { pattern: 'export', path: 'src/a.ts' })).text).toBe('src/a.ts:2:export { a };');
    expect((await run(grep, { pattern: 'TODO', path: 'build' })).text).toBe('build/out.js:1:// TODO generated');
  });

  it('shows context lines apart from matching ones, groups apart by --', async () => {
    const workspace = await tempWorkspace();
    await workspace.files({ 'x.txt': 'a\nmatch 1\nb\nc\nd\ne\nmatch 2\nf\n' });
    const result = await run(grepTool(workspace.cwd), { pattern: 'match', context: 1 });
    expect(result.text).toBe(
      ['x.txt-1-a', 'x.txt:2:match 1', 'x.txt-3-b', '--', 'x.txt-6-e', 'x.txt:7:match 2', 'x.txt-8-f'].join('\n'),
    );
  });

  it('stops at the limit and says so', async () => {
    const workspace = await tempWorkspace();
    await workspace.files({ 'many.txt': 'hit\n'.repeat(50) });
    const result = await run(grepTool(workspace.cwd), { pattern: 'hit', limit: 3 });
    expect(result.text).toBe(
      'many.txt:1:hit\nmany.txt:2:hit\nmany.txt:3:hit\n\n[3 matching lines shown: stopped at 3; narrow the search or raise limit.]',
    );
    expect(result.details).toMatchObject({ count: 3, truncated: true });
  });

  it('cuts long lines', async () => {
    const workspace = await tempWorkspace();
    await workspace.files({ 'wide.txt': `needle ${'x'.repeat(1000)}\n` });
    const result = await run(grepTool(workspace.cwd), { pattern: 'needle' });
    expect(result.text).toMatch(/^wide\.txt:1:needle x+ … \[line cut at 500 characters\]$/);
  });

  it('does not read through a symlink leading out of the working directory', async () => {
    const workspace = await project();
    await symlink(join(workspace.outside, 'secret.txt'), join(workspace.cwd, 'src', 'leak.txt'));
    expect((await run(grepTool(workspace.cwd), { pattern: 'secret' })).text).toBe('[No matches for /secret/ in .]');
  });

  it('refuses an invalid regular expression with a clear result', async () => {
    const workspace = await project();
    const result = await run(grepTool(workspace.cwd), { pattern: 'a(b' });
    expect(result).toMatchObject({ isError: true, details: { failure: 'invalid_argument', path: null } });
    expect(result.text).toContain('Invalid regular expression');
  });
});
