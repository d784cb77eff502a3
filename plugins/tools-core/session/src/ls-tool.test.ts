import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, tempWorkspace } from '../test/temp-workspace';
import { lsTool } from './ls-tool';

describe('the ls tool', () => {
  it('lists the working directory sorted, hidden entries included, directories and links marked', async () => {
    const workspace = await tempWorkspace();
    await workspace.files({ 'b.txt': '', '.env': '', 'src/a.ts': '', 'A.md': '' });
    await symlink(join(workspace.cwd, 'b.txt'), join(workspace.cwd, 'link'));
    const result = await run(lsTool(workspace.cwd), {});
    expect(result.text).toBe('.env\nA.md\nb.txt\nlink@\nsrc/');
    expect(result.details).toEqual({ path: '.', pattern: null, count: 5, truncated: false, notice: null });
  });

  it('lists a subdirectory, stops at the limit and says so, and says when a directory is empty', async () => {
    const workspace = await tempWorkspace();
    await workspace.files({ 'src/a.ts': '', 'src/b.ts': '', 'src/c.ts': '', 'empty/.keep': '' });
    const ls = lsTool(workspace.cwd);
    expect(await run(ls, { path: 'src', limit: 2 })).toMatchObject({
      text: 'a.ts\nb.ts\n\n[Showing 2 of 3 entries: raise limit to see more.]',
      details: { path: 'src', count: 2, truncated: true },
    });
    expect((await run(ls, { path: 'empty' })).text).toBe('.keep');
    expect((await run(ls, { path: 'empty/.keep' })).details).toEqual({
      failure: 'not_a_directory',
      path: 'empty/.keep',
    });
  });

  it('says so for a directory that does not exist', async () => {
    const workspace = await tempWorkspace();
    expect(await run(lsTool(workspace.cwd), { path: 'nope' })).toMatchObject({
      isError: true,
      text: 'nope does not exist.',
    });
  });
});
