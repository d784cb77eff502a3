import { describe, expect, it } from 'vitest';
import { sgrParameters, stripAnsi, tokenizeAnsi } from './ansi-tokens';

describe('ANSI tokens', () => {
  it('splits CSI, OSC and two-byte escapes from text, losing nothing', () => {
    const text = 'a\x1b[31mb\x1b]8;;u\x1b\\c\x1b7d\x1b[';
    const tokens = tokenizeAnsi(text);
    expect(tokens.map((t) => t.kind)).toEqual(['text', 'escape', 'text', 'escape', 'text', 'escape', 'text', 'escape']);
    expect(tokens.map((t) => t.text).join('')).toBe(text);
  });

  it('stripAnsi leaves only the text', () => {
    expect(stripAnsi('\x1b[1mbold\x1b[22m and \x1b]0;title\x07plain')).toBe('bold and plain');
  });

  it('only SGR sequences have SGR parameters', () => {
    expect(sgrParameters('\x1b[38;5;200m')).toBe('38;5;200');
    expect(sgrParameters('\x1b[m')).toBe('');
    expect(sgrParameters('\x1b[2J')).toBeUndefined();
    expect(sgrParameters('\x1b[?25m')).toBeUndefined();
  });
});
