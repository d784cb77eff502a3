import { access, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { preflight, run, tempWorkspace } from '../test/temp-workspace';
import { bashTool } from './bash-tool';
import { editTool } from './edit-tool';
import { writeTool } from './write-tool';

/** The result without the joined text `run` adds, to compare with a preflight's refusal. */
async function executed(...args: Parameters<typeof run>) {
  const { text: _text, ...result } = await run(...args);
  return result;
}

describe('the preflight of the file tools', () => {
  it('lets a write inside the working directory go ahead, and writes nothing itself', async () => {
    const workspace = await tempWorkspace();
    expect(await preflight(writeTool(workspace.cwd), { path: 'src/new.ts', content: 'x' })).toBeNull();
    await expect(access(join(workspace.cwd, 'src'))).rejects.toThrow();
  });

  it('refuses a write over a directory with the refusal the write itself gives', async () => {
    const workspace = await tempWorkspace();
    await workspace.files({ 'src/a.ts': '' });
    const tool = writeTool(workspace.cwd);
    const refusal = await preflight(tool, { path: 'src', content: 'x' });
    expect(refusal).toMatchObject({ details: { failure: 'not_a_file', path: 'src' } });
    expect(refusal).toEqual(await executed(tool, { path: 'src', content: 'x' }));
  });

  it('lets an edit that can be made go ahead, and changes nothing itself', async () => {
    const workspace = await tempWorkspace();
    await workspace.files({ 'a.txt': 'alpha\n' });
    expect(await preflight(editTool(workspace.cwd), { path: 'a.txt', oldText: 'alpha', newText: 'beta' })).toBeNull();
    expect(await workspace.text('a.txt')).toBe('alpha\n');
  });

  it.each([
    ['a missing file', { path: 'gone.txt', oldText: 'a', newText: 'b' }, 'not_found'],
    ['text that is not there', { path: 'a.txt', oldText: 'omega', newText: 'b' }, 'no_match'],
    ['text that is there twice', { path: 'a.txt', oldText: 'alpha', newText: 'b' }, 'ambiguous_match'],
    ['a replacement that changes nothing', { path: 'a.txt', oldText: 'alpha', newText: 'alpha' }, 'no_change'],
    ['a binary file', { path: 'b.bin', oldText: 'a', newText: 'b' }, 'binary_file'],
  ])('refuses an edit of %s with the refusal the edit itself gives', async (_case, args, failure) => {
    const workspace = await tempWorkspace();
    await workspace.files({ 'a.txt': 'alpha\nalpha\n', 'b.bin': new Uint8Array([97, 0, 98]) });
    const tool = editTool(workspace.cwd);
    const refusal = await preflight(tool, args);
    expect(refusal).toMatchObject({ isError: true, details: { failure } });
    expect(refusal).toEqual(await executed(tool, args));
    expect(await workspace.text('a.txt')).toBe('alpha\nalpha\n');
  });
});

describe('the preflight of bash', () => {
  it('lets a command go ahead in a working directory that exists', async () => {
    const workspace = await tempWorkspace();
    expect(await preflight(bashTool(workspace.cwd), { command: 'touch made' })).toBeNull();
    await expect(access(join(workspace.cwd, 'made'))).rejects.toThrow();
  });

  it('refuses when the working directory is gone, as running it would', async () => {
    const workspace = await tempWorkspace();
    await rm(workspace.cwd, { recursive: true });
    const tool = bashTool(workspace.cwd);
    const refusal = await preflight(tool, { command: 'ls' });
    expect(refusal).toMatchObject({ isError: true, details: { failure: 'not_found' } });
    expect(refusal).toEqual(await executed(tool, { command: 'ls' }));
  });
});
