import { describe, expect, it } from 'vitest';
import { run, tempWorkspace } from '../test/temp-workspace';
import { readTool } from './read-tool';
import { TOOL_LIMITS } from './tool-limits';

const numbered = (count: number) => Array.from({ length: count }, (_, index) => `line ${index + 1}`).join('\n') + '\n';

describe('the read tool', () => {
  it('returns a whole small file as it is, with its range and line count in the details', async () => {
    const workspace = await tempWorkspace();
    await workspace.files({ 'README.md': '# Title\r\n\r\nSome text.\r\n' });
    const result = await run(readTool(workspace.cwd), { path: 'README.md' });
    expect(result.isError).toBeUndefined();
    expect(result.text).toBe('# Title\n\nSome text.');
    expect(result.details).toEqual({
      path: 'README.md',
      startLine: 1,
      endLine: 3,
      totalLines: 3,
      truncated: false,
      notice: null,
    });
  });

  it('reads a range by offset and limit and says how to continue', async () => {
    const workspace = await tempWorkspace();
    await workspace.files({ 'long.txt': numbered(10) });
    const result = await run(readTool(workspace.cwd), { path: 'long.txt', offset: 3, limit: 2 });
    expect(result.text).toBe('line 3\nline 4\n\n[Showing lines 3-4 of 10. Use offset=5 to continue.]');
    expect(result.details).toMatchObject({ startLine: 3, endLine: 4, totalLines: 10, truncated: true });
  });

  it('stops at the default line limit', async () => {
    const workspace = await tempWorkspace();
    await workspace.files({ 'huge.txt': numbered(TOOL_LIMITS.readDefaultLines + 5) });
    const result = await run(readTool(workspace.cwd), { path: 'huge.txt' });
    expect(result.details).toMatchObject({ endLine: TOOL_LIMITS.readDefaultLines, truncated: true });
    expect(result.text.endsWith(`Use offset=${TOOL_LIMITS.readDefaultLines + 1} to continue.]`)).toBe(true);
  });

  it('stops at the output size limit however many lines were asked for, and cuts very long lines', async () => {
    const workspace = await tempWorkspace();
    const wide = 'x'.repeat(TOOL_LIMITS.maxLineLength + 100);
    await workspace.files({ 'wide.txt': `${wide}\n`.repeat(100) });
    const result = await run(readTool(workspace.cwd), { path: 'wide.txt' });
    expect(result.text.length).toBeLessThanOrEqual(TOOL_LIMITS.maxOutputChars + 200);
    expect(result.text.split('\n')[0]).toBe(`${'x'.repeat(TOOL_LIMITS.maxLineLength)} … [line cut at 2000 characters]`);
    expect(result.details).toMatchObject({ truncated: true, totalLines: 100 });
    expect(result.text).toMatch(/\(output limit 50 KiB\)\. Use offset=\d+ to continue\.\]$/);
  });

  it('refuses a binary file with a clear result', async () => {
    const workspace = await tempWorkspace();
    await workspace.files({ 'image.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]) });
    const result = await run(readTool(workspace.cwd), { path: 'image.png' });
    expect(result.isError).toBe(true);
    expect(result.text).toBe('image.png is a binary file (7 bytes); read shows text files only.');
    expect(result.details).toEqual({ failure: 'binary_file', path: 'image.png' });
  });

  it('says so for a missing file, a directory, an empty file and an offset past the end', async () => {
    const workspace = await tempWorkspace();
    await workspace.files({ 'src/a.ts': 'a\n', 'empty.txt': '' });
    const read = readTool(workspace.cwd);
    expect(await run(read, { path: 'nope.txt' })).toMatchObject({
      isError: true,
      text: 'nope.txt does not exist.',
      details: { failure: 'not_found' },
    });
    expect(await run(read, { path: 'src' })).toMatchObject({
      isError: true,
      text: 'src is a directory; use ls to list it.',
    });
    expect(await run(read, { path: 'empty.txt' })).toMatchObject({
      text: '[empty.txt is empty]',
      details: { totalLines: 0, startLine: 0, endLine: 0 },
    });
    expect(await run(read, { path: 'src/a.ts', offset: 5 })).toMatchObject({
      isError: true,
      text: 'offset 5 is past the end of src/a.ts, which has 1 line.',
    });
  });

  it('runs in parallel with other reads', () => {
    expect(readTool('/').executionMode).toBe('parallel');
  });
});
