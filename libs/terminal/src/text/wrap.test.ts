import { describe, expect, it } from 'vitest';
import { stripAnsi } from './ansi-tokens';
import { visibleWidth } from './width';
import { wrapText } from './wrap';

describe('wrapText', () => {
  it('breaks between words and drops the space at the break', () => {
    expect(wrapText('the quick brown fox', 10)).toEqual(['the quick', 'brown fox']);
  });

  it('keeps explicit line breaks and empty lines', () => {
    expect(wrapText('a\n\nb\r\nc', 10)).toEqual(['a', '', 'b', 'c']);
    expect(wrapText('', 10)).toEqual(['']);
  });

  it('hard-breaks a word longer than the line, starting it on a line of its own', () => {
    expect(wrapText('see abcdefghijklmnop', 6)).toEqual(['see', 'abcdef', 'ghijkl', 'mnop']);
  });

  it('keeps indentation at the start of a line', () => {
    expect(wrapText('  indented text', 20)).toEqual(['  indented text']);
  });

  it('turns tabs into spaces to the next tab stop of each line, and wraps them as spaces', () => {
    expect(wrapText('func main() {\n\treturn\n}', 40)).toEqual(['func main() {', '    return', '}']);
    expect(wrapText('a\tb\tc', 40)).toEqual(['a   b   c']);
    expect(wrapText('word\tword', 6)).toEqual(['word', 'word']);
  });

  it('a 🐢 takes two columns and is never split by wrapping', () => {
    const lines = wrapText('ab🐢🐢🐢', 5);
    expect(lines).toEqual(['ab🐢', '🐢🐢']);
    for (const line of lines) expect(visibleWidth(line)).toBeLessThanOrEqual(5);
  });

  it('wide CJK characters wrap by columns', () => {
    expect(wrapText('中文字符测试', 5)).toEqual(['中文', '字符', '测试']);
  });

  it('combining marks stay with their letter across a break', () => {
    expect(wrapText('e\u0301e\u0301e\u0301', 2)).toEqual(['e\u0301e\u0301', 'e\u0301']);
  });

  it('a grapheme wider than the line gets a line of its own', () => {
    expect(wrapText('a🐢b', 1)).toEqual(['a', '🐢', 'b']);
  });

  it('escape sequences take no width and survive wrapping', () => {
    const lines = wrapText('\x1b[1mbold\x1b[22m word', 4);
    expect(lines.map(stripAnsi)).toEqual(['bold', 'word']);
    expect(lines[0]).toBe('\x1b[1mbold\x1b[22m');
  });

  it('a style open at a line break is closed at the line end and re-opened on the next line', () => {
    expect(wrapText('\x1b[31mred words here\x1b[39m plain', 9)).toEqual([
      '\x1b[31mred words\x1b[0m',
      '\x1b[31mhere\x1b[39m',
      'plain',
    ]);
  });

  it('a style carries across an explicit newline too', () => {
    expect(wrapText('\x1b[3mone\ntwo\x1b[0m', 10)).toEqual(['\x1b[3mone\x1b[0m', '\x1b[3mtwo\x1b[0m']);
  });
});
