import { describe, expect, it } from 'vitest';
import { tempWorkspace } from '../test/temp-workspace';
import { searchProjectFiles } from './project-file-search';

describe('searching the project files', () => {
  it('walks breadth first, so a walk cut short at its bound has seen the shallow files, and says it was cut', async () => {
    const workspace = await tempWorkspace();
    await workspace.files({ 'a/b/c/deep.ts': '', 'a/b/mid.ts': '', 'top.ts': '' });
    const cut = await searchProjectFiles(workspace.cwd, 'ts', 20, { maxEntries: 3 });
    expect(cut).toEqual({ matches: [{ path: 'top.ts', isDirectory: false }], truncated: true });
    const whole = await searchProjectFiles(workspace.cwd, '.ts', 20);
    expect(whole).toEqual({
      matches: ['top.ts', 'a/b/mid.ts', 'a/b/c/deep.ts'].map((path) => ({ path, isDirectory: false })),
      truncated: false,
    });
  });

  it('stops when its time is up, and when the call is aborted', async () => {
    const workspace = await tempWorkspace();
    await workspace.files({ 'one.ts': '', 'two.ts': '' });
    let clock = 0;
    const late = await searchProjectFiles(workspace.cwd, 'ts', 20, { maxWalkMs: 5, now: () => (clock += 10) });
    expect(late).toEqual({ matches: [], truncated: true });
    const aborted = await searchProjectFiles(workspace.cwd, 'ts', 20, { signal: AbortSignal.abort() });
    expect(aborted.truncated).toBe(true);
  });

  it('lists node_modules without entering it, even with no .gitignore', async () => {
    const workspace = await tempWorkspace();
    await workspace.files({ 'node_modules/pkg/index.js': '', 'index.js': '' });
    const found = await searchProjectFiles(workspace.cwd, 'index', 20);
    expect(found.matches).toEqual([{ path: 'index.js', isDirectory: false }]);
    expect((await searchProjectFiles(workspace.cwd, 'node', 20)).matches).toEqual([
      { path: 'node_modules', isDirectory: true },
    ]);
  });

  it('finds nothing in a working directory that is gone', async () => {
    const workspace = await tempWorkspace();
    expect(await searchProjectFiles(`${workspace.cwd}/missing`, '', 20)).toEqual({ matches: [], truncated: false });
  });
});
