import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { chmod } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { run, tempWorkspace } from '../test/temp-workspace';
import { writeTool } from './write-tool';

describe('the write tool', () => {
  it('creates a file and its missing directories, with a diff of the added lines', async () => {
    const workspace = await tempWorkspace();
    const result = await run(writeTool(workspace.cwd), { path: 'src/new/hello.ts', content: 'one\ntwo\n' });
    expect(result.isError).toBeUndefined();
    expect(await workspace.text('src/new/hello.ts')).toBe('one\ntwo\n');
    expect(result.text).toBe('Created src/new/hello.ts (2 lines, 8 bytes).');
    expect(result.details).toEqual({
      path: 'src/new/hello.ts',
      created: true,
      replacements: 0,
      diff: '--- src/new/hello.ts\n+++ src/new/hello.ts\n@@ -0,0 +1,2 @@\n+one\n+two\n',
      added: 2,
      removed: 0,
      diffTruncated: false,
    });
  });

  it('replaces an existing file whole, keeping its mode, with a diff against the old content', async () => {
    const workspace = await tempWorkspace();
    await workspace.files({ 'run.sh': 'echo old\n' });
    await chmod(join(workspace.cwd, 'run.sh'), 0o755);
    const result = await run(writeTool(workspace.cwd), { path: 'run.sh', content: 'echo new\n' });
    expect(await workspace.text('run.sh')).toBe('echo new\n');
    expect((await stat(join(workspace.cwd, 'run.sh'))).mode & 0o777).toBe(0o755);
    expect(result.text).toBe('Replaced the content of run.sh (1 line, 9 bytes).');
    expect(result.details).toMatchObject({ created: false, added: 1, removed: 1 });
    expect((result.details as { diff: string }).diff).toContain('-echo old\n+echo new\n');
  });

  it('refuses to write over a directory', async () => {
    const workspace = await tempWorkspace();
    await workspace.files({ 'src/a.ts': '' });
    const result = await run(writeTool(workspace.cwd), { path: 'src', content: 'x' });
    expect(result).toMatchObject({
      isError: true,
      text: 'src is a directory, not a file.',
      details: { failure: 'not_a_file' },
    });
  });

  it('cuts a huge diff in the details and says so', async () => {
    const workspace = await tempWorkspace();
    const content = Array.from({ length: 20_000 }, (_, index) => `line ${index}`).join('\n');
    const result = await run(writeTool(workspace.cwd), { path: 'big.txt', content });
    expect(result.details).toMatchObject({ diffTruncated: true, added: 20_000 });
    expect((result.details as { diff: string }).diff.length).toBeLessThanOrEqual(64 * 1024);
  });

  it('runs one at a time', () => {
    expect(writeTool('/').executionMode).toBe('sequential');
  });
});
