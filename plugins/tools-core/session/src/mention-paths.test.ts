import { describe, expect, it } from 'vitest';
import { run, tempWorkspace } from '../test/temp-workspace';
import { editTool } from './edit-tool';
import { readTool } from './read-tool';

describe('a file mentioned as the @ completion writes it', () => {
  it('is read and edited as the path without the @ (quoted or not) when nothing is named with it', async () => {
    const workspace = await tempWorkspace();
    await workspace.files({ 'src/app.ts': 'export const app = 1;\n', 'my notes.md': 'plans\n' });
    const read = await run(readTool(workspace.cwd), { path: '@src/app.ts' });
    expect(read.text).toBe('export const app = 1;');
    expect(read.details).toMatchObject({ path: 'src/app.ts' });
    expect((await run(readTool(workspace.cwd), { path: '@"my notes.md"' })).text).toBe('plans');
    await run(editTool(workspace.cwd), { path: '@src/app.ts', oldText: '= 1', newText: '= 2' });
    expect(await workspace.text('src/app.ts')).toBe('export const app = 2;\n');
  });

  it('is the file named with the @ when there is one', async () => {
    const workspace = await tempWorkspace();
    await workspace.files({ '@types.ts': 'with the mark\n', 'types.ts': 'without\n' });
    expect((await run(readTool(workspace.cwd), { path: '@types.ts' })).text).toBe('with the mark');
  });

  it('stays refused when the path without the @ is outside the working directory, and missing when it is nowhere', async () => {
    const workspace = await tempWorkspace();
    const outside = await run(readTool(workspace.cwd), { path: '@../outside/secret.txt' });
    expect(outside.isError).toBe(true);
    expect(outside.details).toMatchObject({ failure: 'outside_workspace' });
    const missing = await run(readTool(workspace.cwd), { path: '@nowhere.ts' });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain('@nowhere.ts');
  });
});
