import { describe, expect, it } from 'vitest';
import { layoutText, locate, offsetAtColumn } from './layout';

const plain = (text: string, width: number) => layoutText(text, width, () => 0);
const rowsOf = (text: string, width: number) => plain(text, width).rows.map((r) => r.segments.join(''));

describe('layout', () => {
  it('keeps the last column free: a full row of letters breaks one column early', () => {
    expect(rowsOf('abcdef', 4)).toEqual(['abc', 'def']);
  });

  it('lets one space at a break hang in the last column', () => {
    expect(rowsOf('abc def', 4)).toEqual(['abc ', 'def']);
  });

  it('a soft-wrapped row end is the next row start, so each offset shows in one place', () => {
    const layout = plain('abc def', 4);
    expect(locate(layout, 4)).toEqual({ row: 1, col: 0 });
    expect(locate(layout, 3)).toEqual({ row: 0, col: 3 });
    expect(locate(layout, 7)).toEqual({ row: 1, col: 3 });
  });

  it('each logical line starts a row; an empty line is a row', () => {
    expect(rowsOf('a\n\nb', 10)).toEqual(['a', '', 'b']);
    expect(locate(plain('a\n\nb', 10), 2)).toEqual({ row: 1, col: 0 });
  });

  it('offsetAtColumn never passes the column and never lands inside a wide character', () => {
    const [row] = plain('a中b', 10).rows;
    if (row === undefined) throw new Error('no row');
    expect(offsetAtColumn(row, 2)).toBe(1);
    expect(offsetAtColumn(row, 3)).toBe(2);
    expect(offsetAtColumn(row, 99)).toBe(3);
  });
});
