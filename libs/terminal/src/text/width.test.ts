import { describe, expect, it } from 'vitest';
import { graphemeWidth, isWidthUncertain, splitGraphemes, visibleWidth } from './width';

describe('visibleWidth', () => {
  it.each([
    ['hello', 5],
    ['🐢', 2],
    ['✅', 2],
    ['❤️', 2],
    ['中文', 4],
    ['e\u0301', 1],
    ['👨‍👩‍👧', 2],
    ['🇫🇷', 2],
    ['', 0],
  ])('%j takes %i columns', (text, width) => {
    expect(visibleWidth(text)).toBe(width);
  });

  it('escape sequences take no columns', () => {
    expect(visibleWidth('\x1b[1;31mred\x1b[0m \x1b]8;;https://x\x07link\x1b]8;;\x07')).toBe(8);
  });
});

describe('graphemes', () => {
  it('an emoji with a skin tone, a flag and a combining mark are one grapheme each', () => {
    expect(splitGraphemes('👍🏽🇫🇷e\u0301a')).toEqual(['👍🏽', '🇫🇷', 'e\u0301', 'a']);
  });

  it('a control character takes no columns', () => {
    expect(graphemeWidth('\x07')).toBe(0);
  });
});

describe('graphemeWidth', () => {
  it('answers the same width the second time, from its cache', () => {
    for (const grapheme of ['你', '🐢', '👍🏽', 'e\u0301', '\x07', 'a']) {
      const first = graphemeWidth(grapheme);
      expect(graphemeWidth(grapheme)).toBe(first);
      expect(first).toBe(visibleWidth(grapheme));
    }
  });
});

describe('isWidthUncertain', () => {
  it.each([
    ['a skin tone', '👍🏽'],
    ['a flag', '🇯🇵'],
    ['a lone regional indicator', '🇯'],
    ['a ZWJ sequence', '🧑‍💻'],
    ['VS16', '❤️'],
    ['VS15', '❤︎'],
    ['a keycap', '1️⃣'],
    ['a tag sequence', '🏴󠁧󠁢󠁳󠁣󠁴󠁿'],
    ['a single pictograph, which older tables draw narrow', '🐢'],
    ['conjoining Hangul jamo', '\u1100\u1161'],
  ])('%s is uncertain', (_kind, grapheme) => {
    expect(isWidthUncertain(grapheme)).toBe(true);
  });

  it.each([
    ['ASCII', 'a'],
    ['a space', ' '],
    ['CJK', '你'],
    ['a combining mark', 'e\u0301'],
    ['a box-drawing rule', '─'],
    ['a precomposed Hangul syllable', '한'],
    ['a bullet', '●'],
  ])('%s is certain', (_kind, grapheme) => {
    expect(isWidthUncertain(grapheme)).toBe(false);
  });
});
