import fc from 'fast-check';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { textColumns } from './text-columns';

/** What pi asked string-width before the port: escape sequences counted as the control characters they are. */
const packageColumns = (text: string) => stringWidth(text, { countAnsiEscapeCodes: true });

/** Text that reaches every rule: emoji of each kind, CJK, Hangul jamo, marks, halfwidth forms, controls. */
const PIECES = [
  'a',
  ' ',
  '中',
  '한',
  '\u1100',
  '\u1161',
  '\u11a8',
  '\ua960',
  '\ud7b0',
  '\ud7cb',
  '\u0301',
  '\u0903',
  '\u0d4e',
  '\u0600',
  '\u200b',
  '\u200d',
  '\ufe0e',
  '\ufe0f',
  '\u20e3',
  '#',
  '1',
  '🐢',
  '👍',
  '🏽',
  '🧑',
  '💻',
  '🇫',
  '🇷',
  '❤',
  '✅',
  '⌚',
  '\uff76',
  '\uff9e',
  '\uff70',
  '\x1b',
  '\t',
  '\x07',
  '\ud800',
  '\udc00',
  '…',
  '─',
];

describe("textColumns: string-width 8.3.0's rules, built on first use", () => {
  it.each([
    ['ASCII', 'hello world', 11],
    ['a wide CJK word', '中文', 4],
    ['an emoji with a skin tone', '👍🏽', 2],
    ['a ZWJ family', '👨‍👩‍👧', 2],
    ['a flag', '🇫🇷', 2],
    ['a keycap without VS16', '1\u20e3', 2],
    ['a ZWJ pair not in RGI whose first pictograph is narrow', '\u2764\u200d\ud83d\udd25', 2],
    ['a ZWJ chain not in RGI, longer than a pair', '\u2764\u200d🐢\u200d🐢\u200d🐢', 2],
    ['a ZWJ chain past 50 code units (not looked into)', `\u2764${'\u200d🐢'.repeat(20)}`, 1],
    ['a combining mark on a letter', 'e\u0301', 1],
    ['a modern Hangul L+V+T syllable of jamo', '\u1100\u1161\u11a8', 2],
    ['halfwidth katakana with its voiced mark', '\uff76\uff9e', 2],
    ['an escape and a bell', '\x1b[1m\x07', 3],
    ['nothing', '', 0],
  ])('%s: %j takes %i columns', (_kind, text, columns) => {
    expect(textColumns(text)).toBe(columns);
    expect(textColumns(text)).toBe(packageColumns(text));
  });

  it('agrees with the string-width package on text made of every rule’s characters', () => {
    const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 12 }).map((pieces) => pieces.join(''));
    fc.assert(
      fc.property(text, (sample) => textColumns(sample) === packageColumns(sample)),
      { numRuns: 2000 },
    );
  });

  it('agrees with the string-width package on pictographs joined by ZWJ, text- and emoji-style, qualified or not', () => {
    // The ZWJ rule shows only where the first pictograph is narrow (❤, ☺, ✌): generic text rarely builds one.
    const pictograph = fc.constantFrom('\u2764', '\u263a', '\u270c', '🐢', '👍', '✅', '⌚', '🔥');
    const qualifier = fc.constantFrom('', '', '\ufe0f', '\ufe0e', '🏽', '\u0301');
    const part = fc.tuple(pictograph, qualifier).map(([base, after]) => base + after);
    const text = fc.array(part, { minLength: 1, maxLength: 20 }).map((parts) => parts.join('\u200d'));
    fc.assert(
      fc.property(text, (sample) => textColumns(sample) === packageColumns(sample)),
      { numRuns: 2000 },
    );
  });

  it('agrees with the string-width package on any text (graphemes and lone code units alike)', () => {
    const text = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 8 }), fc.string({ unit: 'binary', maxLength: 8 }));
    fc.assert(
      fc.property(text, (sample) => textColumns(sample) === packageColumns(sample)),
      { numRuns: 2000 },
    );
  });
});
