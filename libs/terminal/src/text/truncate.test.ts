import { describe, expect, it } from 'vitest';
import { padRight, truncate } from './truncate';
import { visibleWidth } from './width';

describe('truncate', () => {
  it('leaves text that fits alone', () => {
    expect(truncate('short', 10)).toBe('short');
  });

  it('cuts to the width including the ellipsis', () => {
    expect(truncate('hello world', 8)).toBe('hello w…');
    expect(truncate('hello world', 8, '...')).toBe('hello...');
  });

  it('never splits a wide character: one that does not fit is left out whole', () => {
    const cut = truncate('ab🐢🐢', 4);
    expect(cut).toBe('ab…');
    expect(visibleWidth(cut)).toBeLessThanOrEqual(4);
  });

  it('closes a style still open at the cut', () => {
    expect(truncate('\x1b[31mred text\x1b[39m', 5)).toBe('\x1b[31mred …\x1b[0m');
  });

  it('cuts plain ASCII where it cuts the same text with an escape in it', () => {
    for (const text of ['hello world', 'a b  c   d', 'x'.repeat(30)])
      for (let width = 0; width < text.length; width++)
        for (const ellipsis of ['…', '...', ''])
          expect(truncate(text, width, ellipsis)).toBe(truncate(`${text}\x1b[0m`, width, ellipsis));
  });

  it('drops the ellipsis when not even it fits', () => {
    expect(truncate('abc', 0)).toBe('');
    expect(truncate('abc', 1, '...')).toBe('a');
  });
});

describe('padRight', () => {
  it('pads by columns, counting wide characters and ignoring escapes', () => {
    expect(padRight('🐢', 4)).toBe('🐢  ');
    expect(padRight('\x1b[1mx\x1b[22m', 3)).toBe('\x1b[1mx\x1b[22m  ');
  });

  it('leaves a wider line unchanged', () => {
    expect(padRight('toolong', 3)).toBe('toolong');
  });
});
