import { visibleWidth } from '@pi/terminal';
import { describe, expect, it } from 'vitest';
import { editorDriver } from './testing';

describe('render', () => {
  it('an empty editor is one empty line with the cursor at its start', () => {
    expect(editorDriver().editor.render(20)).toEqual({ lines: [''], cursor: { row: 0, col: 0 } });
  });

  it('wraps at word boundaries and reports the cursor on the wrapped row', () => {
    const d = editorDriver();
    d.type('the quick brown fox');
    expect(d.editor.render(12)).toEqual({ lines: ['the quick ', 'brown fox'], cursor: { row: 1, col: 9 } });
  });

  it('a 🐢 takes two columns and is never split by wrapping', () => {
    const d = editorDriver();
    d.type('🐢🐢🐢🐢');
    const { lines, cursor } = d.editor.render(6);
    expect(lines).toEqual(['🐢🐢', '🐢🐢']);
    expect(cursor).toEqual({ row: 1, col: 4 });
  });

  it('the cursor after a full row stays on screen: the last column is kept for it', () => {
    const d = editorDriver();
    d.type('abcdefghij');
    const { lines, cursor } = d.editor.render(5);
    expect(lines).toEqual(['abcd', 'efgh', 'ij']);
    expect(cursor.col).toBeLessThan(5);
  });

  it('CJK text places the cursor by columns, for IMEs', () => {
    const d = editorDriver();
    d.type('中文ab');
    d.press('left', 'left');
    expect(d.editor.render(40).cursor).toEqual({ row: 0, col: 4 });
  });

  it('a tab shows as four spaces and the cursor counts them', () => {
    const d = editorDriver();
    d.pasteText('\tx');
    expect(d.editor.render(20)).toEqual({ lines: ['    x'], cursor: { row: 0, col: 5 } });
  });

  it('a marker wider than the editor is cut to fit', () => {
    const d = editorDriver();
    d.pasteText('x'.repeat(2000));
    const { lines } = d.editor.render(10);
    for (const line of lines) expect(visibleWidth(line)).toBeLessThanOrEqual(10);
  });

  it('re-rendering at another width re-wraps the same text', () => {
    const d = editorDriver();
    d.type('aaa bbb ccc');
    expect(d.editor.render(8).lines).toEqual(['aaa bbb ', 'ccc']);
    expect(d.editor.render(40).lines).toEqual(['aaa bbb ccc']);
  });
});
