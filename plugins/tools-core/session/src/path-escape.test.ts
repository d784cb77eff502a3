import { readdir, readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AnyAgentTool } from '@pi/plugin-api';
import { preflight, run, tempWorkspace, type TempWorkspace } from '../test/temp-workspace';
import { editTool } from './edit-tool';
import { findTool } from './find-tool';
import { grepTool } from './grep-tool';
import { lsTool } from './ls-tool';
import { readTool } from './read-tool';
import { writeTool } from './write-tool';

/** Each file tool, with the arguments that would touch `path` (a file for read/write/edit, a tree for the rest). */
const FILE_TOOLS: Array<[string, (cwd: string) => AnyAgentTool, (path: string) => Record<string, unknown>]> = [
  ['read', readTool, (path) => ({ path })],
  ['write', writeTool, (path) => ({ path, content: 'overwritten\n' })],
  ['edit', editTool, (path) => ({ path, oldText: 'outside secret', newText: 'edited' })],
  ['ls', lsTool, (path) => ({ path })],
  ['find', findTool, (path) => ({ pattern: '*', path })],
  ['grep', grepTool, (path) => ({ pattern: 'secret', path })],
];

/** Ways out of the working directory; each gets the workspace and returns the path the model would send. */
const ESCAPES: Array<[string, (workspace: TempWorkspace) => Promise<string>]> = [
  ['a relative path climbing out with ..', async () => '../outside/secret.txt'],
  [
    '.. hidden in the middle of a path',
    async (w) => (await w.files({ 'src/a.txt': 'a' }), 'src/../../outside/secret.txt'),
  ],
  ['an absolute path outside', async (w) => join(w.outside, 'secret.txt')],
  ['the parent directory itself', async () => '..'],
  ['a home-relative path', async () => '~/'],
  [
    'a symlink to a file outside',
    async (w) => (await symlink(join(w.outside, 'secret.txt'), join(w.cwd, 'link.txt')), 'link.txt'),
  ],
  [
    'a symlinked directory leading outside',
    async (w) => (await symlink(w.outside, join(w.cwd, 'out')), 'out/secret.txt'),
  ],
  [
    'a symlink to a directory outside, as the directory',
    async (w) => (await symlink(w.outside, join(w.cwd, 'out')), 'out'),
  ],
  [
    'a dangling symlink pointing outside',
    async (w) => (await symlink(join(w.outside, 'new.txt'), join(w.cwd, 'dangling.txt')), 'dangling.txt'),
  ],
  [
    'a path through a symlinked directory to a file not yet there',
    async (w) => (await symlink(w.outside, join(w.cwd, 'out')), 'out/new/file.txt'),
  ],
];

async function outsideState(workspace: TempWorkspace): Promise<Record<string, string>> {
  const state: Record<string, string> = {};
  for (const name of await readdir(workspace.outside, { recursive: true })) {
    state[name] = await readFile(join(workspace.outside, name), 'utf8').catch(() => '<dir>');
  }
  return state;
}

describe.each(FILE_TOOLS)('the %s tool', (_name, makeTool, argsFor) => {
  it.each(ESCAPES)('refuses %s, touching nothing and revealing nothing', async (_case, escape) => {
    const workspace = await tempWorkspace();
    const path = await escape(workspace);
    const before = await outsideState(workspace);

    const result = await run(makeTool(workspace.cwd), argsFor(path));

    expect(result.isError).toBe(true);
    expect(result.details).toEqual({ failure: 'outside_workspace', path: null });
    expect(result.text).toMatch(/^Refused: .* is outside the working directory/);
    expect(result.text).not.toContain('outside secret');
    expect(await outsideState(workspace)).toEqual(before);
  });
});

describe.each(FILE_TOOLS.filter(([name]) => name === 'write' || name === 'edit'))(
  'the preflight of %s, run before anyone is asked to allow it',
  (_name, makeTool, argsFor) => {
    it.each(ESCAPES)('refuses %s as the tool itself would, touching nothing', async (_case, escape) => {
      const workspace = await tempWorkspace();
      const path = await escape(workspace);
      const before = await outsideState(workspace);
      const tool = makeTool(workspace.cwd);

      const refusal = await preflight(tool, argsFor(path));

      expect(refusal).toMatchObject({ isError: true, details: { failure: 'outside_workspace', path: null } });
      expect(refusal).toEqual(await run(tool, argsFor(path)).then(({ text: _text, ...result }) => result));
      expect(await outsideState(workspace)).toEqual(before);
    });
  },
);

describe('paths inside the working directory', () => {
  it('may use .. that stays inside, an absolute path inside, and a symlink to a file inside', async () => {
    const workspace = await tempWorkspace();
    await workspace.files({ 'src/a.txt': 'alpha\n', 'b.txt': 'beta\n' });
    await symlink(join(workspace.cwd, 'b.txt'), join(workspace.cwd, 'src', 'to-b.txt'));
    const read = readTool(workspace.cwd);

    expect((await run(read, { path: 'src/../b.txt' })).text).toBe('beta');
    expect((await run(read, { path: join(workspace.cwd, 'src/a.txt') })).text).toBe('alpha');
    const throughLink = await run(read, { path: 'src/to-b.txt' });
    expect(throughLink.text).toBe('beta');
    expect(throughLink.details).toMatchObject({ path: 'b.txt' });
  });
});
