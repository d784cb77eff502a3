import { describe, expect, it } from 'vitest';
import { graphemeWidth, splitGraphemes, visibleWidth } from './width';

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
