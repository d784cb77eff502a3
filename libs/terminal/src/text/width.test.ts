import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { stripAnsi } from './ansi-tokens';
import {
  certainStandaloneWidth,
  graphemeWidth,
  isWidthUncertain,
  splitGraphemes,
  standaloneWidth,
  visibleWidth,
} from './width';

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

  it.each([
    ['a keycap after text', 'a1\ufe0f\u20e3b#\ufe0f\u20e3'],
    ['combining marks on ASCII and on a precomposed letter', 'e\u0301 \u00e9\u0301\u0302x'],
    ['a halfwidth voiced mark, a letter that extends', '\uff76\uff9e\uff8a\uff9f'],
    ['Hangul syllables and conjoining jamo', '한국어 \u1100\u1161\u11a8 \uac00\u11a8'],
    ['skin tones, ZWJ and flags between words', 'x👍🏽y 🧑‍💻 🇯🇵🇫🇷 z'],
    ['rules, bullets and arrows', `${'─'.repeat(12)}● › ↓ …`],
    ['Tamil and Devanagari with spacing marks and viramas', 'தமிழ் क्षि ab\u0903'],
    ['a prepended letter', '\u0d4ea\u0600\u0661'],
    ['VS15 and VS16 on a BMP pictograph', '❤\ufe0f ❤\ufe0e ✅ ⌚'],
    ['styled wide text', '\x1b[1m你好\x1b[0m\x1b[31m🐢\x1b[0m e\x1b[2m\u0301'],
    ['a tab and a bell', 'a\tb\x07c'],
  ])('agrees with string-width on the plain text: %s', (_kind, text) => {
    expect(visibleWidth(text)).toBe(stringWidth(stripAnsi(text), { countAnsiEscapeCodes: true }));
  });

  it('counts a character that may join its neighbour as part of a grapheme, not alone', () => {
    expect(standaloneWidth('─'.charCodeAt(0))).toBe(1);
    expect(standaloneWidth('你'.charCodeAt(0))).toBe(2);
    expect(standaloneWidth(0x0301)).toBe(-1);
    expect(standaloneWidth(0xfe0f)).toBe(-1);
    expect(standaloneWidth(0x1100)).toBe(-1);
    expect(standaloneWidth(0xd83d)).toBe(-1);
  });

  it('tells a screen which lone characters it may draw without a move after them', () => {
    expect(certainStandaloneWidth('─'.charCodeAt(0))).toBe(1);
    expect(certainStandaloneWidth('你'.charCodeAt(0))).toBe(2);
    expect(standaloneWidth('✅'.charCodeAt(0))).toBe(2);
    expect(certainStandaloneWidth('✅'.charCodeAt(0))).toBe(-1);
    expect(certainStandaloneWidth(0x0301)).toBe(-1);
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
