import { describe, expect, it } from 'vitest';
import { expandTabs, TAB_STOP } from './tabs';

describe('expandTabs', () => {
  it('fills to the next tab stop, counting from the start of the line', () => {
    expect(TAB_STOP).toBe(4);
    expect(expandTabs('\tx')).toBe('    x');
    expect(expandTabs('ab\tc')).toBe('ab  c');
    expect(expandTabs('abcd\te')).toBe('abcd    e');
    expect(expandTabs('a\n\tb')).toBe('a\n    b');
  });

  it('counts wide characters as two columns and escape sequences as none', () => {
    expect(expandTabs('你\tx')).toBe('你  x');
    expect(expandTabs('\x1b[31mab\x1b[0m\tc')).toBe('\x1b[31mab\x1b[0m  c');
  });

  it('leaves text without tabs as it is', () => {
    const text = 'no tabs 🐢';
    expect(expandTabs(text)).toBe(text);
  });

  it('takes another tab stop', () => {
    expect(expandTabs('ab\tc', 8)).toBe('ab      c');
  });
});
