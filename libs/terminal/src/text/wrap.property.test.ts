import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stripAnsi, tokenizeAnsi } from './ansi-tokens';
import { SgrState } from './sgr-state';
import { graphemeWidth, splitGraphemes, visibleWidth } from './width';
import { wrapText } from './wrap';

const piece = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }) },
  { weight: 2, arbitrary: fc.constantFrom(' ', '  ', '🐢', '中文', 'e\u0301', '👨‍👩‍👧', '\n') },
  { weight: 1, arbitrary: fc.constantFrom('\x1b[31m', '\x1b[1m', '\x1b[0m', '\x1b[39m', '\x1b[38;5;9m') },
);
const styledText = fc
  .array(piece, { maxLength: 20 })
  .map((parts) => parts.join('').replace(/[\p{Cc}]/gu, (c) => (c === '\n' || c === '\x1b' ? c : '')));

describe('wrapText properties', () => {
  it('never produces a line wider than the width, unless it holds one grapheme wider than the width', () => {
    fc.assert(
      fc.property(styledText, fc.integer({ min: 2, max: 30 }), (text, width) => {
        for (const line of wrapText(text, width)) {
          if (visibleWidth(line) <= width) continue;
          const graphemes = splitGraphemes(stripAnsi(line));
          expect(graphemes).toHaveLength(1);
          expect(graphemeWidth(graphemes[0] ?? '')).toBeGreaterThan(width);
        }
      }),
    );
  });

  it('never produces a line wider than the width when no grapheme is wider than 2 columns', () => {
    fc.assert(
      fc.property(styledText, fc.integer({ min: 2, max: 30 }), (text, width) => {
        fc.pre(splitGraphemes(stripAnsi(text)).every((g) => graphemeWidth(g) <= 2));
        for (const line of wrapText(text, width)) expect(visibleWidth(line)).toBeLessThanOrEqual(width);
      }),
    );
  });

  it('loses no visible character except spaces at soft breaks', () => {
    fc.assert(
      fc.property(styledText, fc.integer({ min: 2, max: 30 }), (text, width) => {
        const squash = (s: string): string => stripAnsi(s).replace(/[\s]/g, '');
        expect(wrapText(text, width).map(squash).join('')).toBe(squash(text));
      }),
    );
  });

  it('wraps plain ASCII as it wraps the same text with an escape in it (the fast path and the general one agree)', () => {
    const plain = fc.string({ unit: fc.constantFrom('a', 'b', ' ', ' ', 'long', 'x.y', '\t', '\n'), maxLength: 40 });
    fc.assert(
      fc.property(plain, fc.integer({ min: 1, max: 12 }), (text, width) => {
        // A trailing reset sends every line through the general path and changes nothing visible.
        const general = wrapText(text.replace(/\n/g, '\x1b[0m\n') + '\x1b[0m', width).map((line) =>
          line.replaceAll('\x1b[0m', ''),
        );
        expect(wrapText(text, width)).toEqual(general);
      }),
    );
  });

  it('every line stands alone: it leaves no style open at its end', () => {
    fc.assert(
      fc.property(styledText, fc.integer({ min: 2, max: 30 }), (text, width) => {
        for (const line of wrapText(text, width)) {
          const state = new SgrState();
          for (const token of tokenizeAnsi(line)) if (token.kind === 'escape') state.apply(token.text);
          expect(state.active).toBe(false);
        }
      }),
    );
  });
});
