import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, tempWorkspace } from '../test/temp-workspace';
import { findTool } from './find-tool';

async function project() {
  const workspace = await tempWorkspace();
  await workspace.files({
    '.gitignore': 'node_modules/\ndist\n*.log\n',
    'README.md': '',
    'src/index.ts': '',
    'src/index.test.ts': '',
    'src/deep/util.ts': '',
    'src/deep/.gitignore': 'generated.ts\n!keep.log\n',
    'src/deep/generated.ts': '',
    'src/deep/keep.log': '',
    'debug.log': '',
    'dist/bundle.ts': '',
    'node_modules/pkg/index.ts': '',
    '.github/workflows/ci.yml': '',
  });
  return workspace;
}

describe('the find tool', () => {
  it('matches a pattern without / against names at any depth, skipping what .gitignore ignores', async () => {
    const workspace = await project();
    const result = await run(findTool(workspace.cwd), { pattern: '*.ts' });
    expect(result.text).toBe('src/deep/util.ts\nsrc/index.test.ts\nsrc/index.ts');
    expect(result.details).toEqual({ path: '.', pattern: '*.ts', count: 3, truncated: false, notice: null });
  });

  it('honours nested .gitignore files, their negations included, and finds hidden files', async () => {
    const workspace = await project();
    const find = findTool(workspace.cwd);
    expect((await run(find, { pattern: '*.log' })).text).toBe('src/deep/keep.log');
    expect((await run(find, { pattern: '*.yml' })).text).toBe('.github/workflows/ci.yml');
  });

  it('matches a pattern with / against paths relative to the searched directory', async () => {
    const workspace = await project();
    const find = findTool(workspace.cwd);
    expect((await run(find, { pattern: 'src/**/*.test.ts' })).text).toBe('src/index.test.ts');
    expect((await run(find, { pattern: 'deep/*.ts', path: 'src' })).text).toBe('src/deep/util.ts');
  });

  it('lists matching directories with a trailing /', async () => {
    const workspace = await project();
    expect((await run(findTool(workspace.cwd), { pattern: 'deep' })).text).toBe('src/deep/');
  });

  it('searches inside an ignored directory when asked to explicitly', async () => {
    const workspace = await project();
    expect((await run(findTool(workspace.cwd), { pattern: '*.ts', path: 'node_modules' })).text).toBe(
      'node_modules/pkg/index.ts',
    );
  });

  it('stops at the limit and says so, and says when nothing matches', async () => {
    const workspace = await project();
    const find = findTool(workspace.cwd);
    expect(await run(find, { pattern: '*.ts', limit: 2 })).toMatchObject({
      text: 'src/deep/util.ts\nsrc/index.test.ts\n\n[2 paths shown: stopped at 2; narrow the pattern or raise limit.]',
      details: { truncated: true, count: 2 },
    });
    expect((await run(find, { pattern: '*.rs' })).text).toBe('[No paths match *.rs in .]');
  });

  it('lists a symlink without following it', async () => {
    const workspace = await project();
    await symlink(workspace.outside, join(workspace.cwd, 'out'));
    expect((await run(findTool(workspace.cwd), { pattern: '*secret*' })).text).toBe('[No paths match *secret* in .]');
    expect((await run(findTool(workspace.cwd), { pattern: 'out' })).text).toBe('out');
  });
});
