import { describe, expect, it } from 'vitest';
import { run, tempWorkspace } from '../test/temp-workspace';
import { editTool } from './edit-tool';

const SOURCE = 'function greet() {\n  return "hello";\n}\n\nfunction part() {\n  return "hello";\n}\n';

describe('the edit tool', () => {
  it('replaces the one exact match and returns the change as a unified diff', async () => {
    const workspace = await tempWorkspace();
    await workspace.files({ 'greet.ts': SOURCE });
    const result = await run(editTool(workspace.cwd), {
      path: 'greet.ts',
      oldText: 'function greet() {\n  return "hello";',
      newText: 'function greet() {\n  return "hi";',
    });
    expect(result.isError).toBeUndefined();
    expect(await workspace.text('greet.ts')).toBe(SOURCE.replace('"hello"', '"hi"'));
    expect(result.text).toBe('Replaced 1 occurrence in greet.ts (+1 -1 lines).');
    expect(result.details).toEqual({
      path: 'greet.ts',
      created: false,
      replacements: 1,
      diff: [
        '--- greet.ts',
        '+++ greet.ts',
        '@@ -1,5 +1,5 @@',
        ' function greet() {',
        '-  return "hello";',
        '+  return "hi";',
        ' }',
        ' ',
        ' function part() {',
        '',
      ].join('\n'),
      added: 1,
      removed: 1,
      diffTruncated: false,
    });
  });

  it('changes nothing when the text occurs several times, and says where', async () => {
    const workspace = await tempWorkspace();
    await workspace.files({ 'greet.ts': SOURCE });
    const result = await run(editTool(workspace.cwd), { path: 'greet.ts', oldText: 'return "hello";', newText: 'x' });
    expect(result.isError).toBe(true);
    expect(result.details).toEqual({ failure: 'ambiguous_match', path: 'greet.ts' });
    expect(result.text).toBe(
      'The text to replace occurs 2 times in greet.ts (lines 2, 6); nothing was changed. Include more ' +
        'surrounding lines to make it unique, or set replaceAll to replace every occurrence.',
    );
    expect(await workspace.text('greet.ts')).toBe(SOURCE);
  });

  it('changes nothing when the text does not occur', async () => {
    const workspace = await tempWorkspace();
    await workspace.files({ 'greet.ts': SOURCE });
    const result = await run(editTool(workspace.cwd), { path: 'greet.ts', oldText: 'return "hello" ;', newText: 'x' });
    expect(result).toMatchObject({ isError: true, details: { failure: 'no_match', path: 'greet.ts' } });
    expect(result.text).toContain('was not found in greet.ts; nothing was changed');
    expect(await workspace.text('greet.ts')).toBe(SOURCE);
  });

  it('replaces every occurrence with replaceAll', async () => {
    const workspace = await tempWorkspace();
    await workspace.files({ 'greet.ts': SOURCE });
    const result = await run(editTool(workspace.cwd), {
      path: 'greet.ts',
      oldText: '"hello"',
      newText: '"bye"',
      replaceAll: true,
    });
    expect(await workspace.text('greet.ts')).toBe(SOURCE.replaceAll('"hello"', '"bye"'));
    expect(result.text).toBe('Replaced 2 occurrences in greet.ts (+2 -2 lines).');
    expect(result.details).toMatchObject({ replacements: 2 });
  });

  it('inserts the new text literally, $ patterns included', async () => {
    const workspace = await tempWorkspace();
    await workspace.files({ 'price.txt': 'cost: PRICE\n' });
    await run(editTool(workspace.cwd), { path: 'price.txt', oldText: 'PRICE', newText: "$&$1$$ $'" });
    expect(await workspace.text('price.txt')).toBe("cost: $&$1$$ $'\n");
  });

  it('matches and keeps CRLF line endings when the model writes LF', async () => {
    const workspace = await tempWorkspace();
    await workspace.files({ 'win.txt': 'one\r\ntwo\r\nthree\r\n' });
    await run(editTool(workspace.cwd), { path: 'win.txt', oldText: 'one\ntwo', newText: 'one\n2' });
    expect(await workspace.text('win.txt')).toBe('one\r\n2\r\nthree\r\n');
  });

  it('refuses a missing file, a binary file and a replacement that changes nothing', async () => {
    const workspace = await tempWorkspace();
    await workspace.files({ 'a.bin': new Uint8Array([1, 0, 2]), 'a.txt': 'same\n' });
    const edit = editTool(workspace.cwd);
    expect(await run(edit, { path: 'nope.txt', oldText: 'a', newText: 'b' })).toMatchObject({
      isError: true,
      text: 'nope.txt does not exist; use write to create it.',
      details: { failure: 'not_found' },
    });
    expect(await run(edit, { path: 'a.bin', oldText: 'a', newText: 'b' })).toMatchObject({
      details: { failure: 'binary_file' },
    });
    expect(await run(edit, { path: 'a.txt', oldText: 'same', newText: 'same' })).toMatchObject({
      details: { failure: 'no_change' },
    });
    expect(await workspace.text('a.txt')).toBe('same\n');
  });

  it('refuses an empty oldText before running', () => {
    expect(editTool('/').parameters.safeParse({ path: 'a', oldText: '', newText: 'b' }).success).toBe(false);
  });
});
