import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SgrState } from './sgr-state';
import { styledGraphemes } from './styled-graphemes';
import { truncate } from './truncate';
import { visibleWidth } from './width';

/** Truncation as a walk over one piece per grapheme and escape: what `truncate` must cut like, without the pieces. */
function truncateByPieces(text: string, width: number, ellipsis = '…'): string {
  const columns = Math.max(0, Math.floor(width));
  if (visibleWidth(text) <= columns) return text;
  const tail = visibleWidth(ellipsis) <= columns ? ellipsis : '';
  const budget = columns - visibleWidth(tail);
  const state = new SgrState();
  let out = '';
  let used = 0;
  for (const piece of styledGraphemes(text)) {
    if (piece.kind === 'escape') {
      state.apply(piece.text);
      out += piece.text;
      continue;
    }
    if (used + piece.width > budget) break;
    out += piece.text;
    used += piece.width;
  }
  return out + tail + state.close();
}

/** Graphemes that join across code units (keycaps, marks, jamo, ZWJ, flags, a prepended letter) beside plain text. */
const hard = fc.constantFrom(
  'a1\ufe0f\u20e3b',
  '#\ufe0f\u20e3',
  'e\u0301',
  '\u00e9\u0301\u0302',
  '\uff76\uff9e\uff8a\uff9f',
  '한국어 \u1100\u1161\u11a8 \uac00\u11a8',
  '👍🏽',
  '🧑‍💻',
  '🇯🇵🇫🇷',
  'தமிழ் क्षि ab\u0903',
  '\u0d4ea\u0600\u0661',
  '❤\ufe0f ❤\ufe0e ✅ ⌚',
  '你好',
  '🐢',
  '─●›↓…',
  '\u200b',
  '\t',
);
const escape = fc.constantFrom(
  '\x1b[31m',
  '\x1b[1m',
  '\x1b[0m',
  '\x1b[39m',
  '\x1b[38;5;9m',
  '\x1b]8;;x\x07',
  '\x1b[2K',
);
const styledText = fc
  .array(
    fc.oneof(
      { weight: 4, arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }) },
      { weight: 3, arbitrary: hard },
      { weight: 2, arbitrary: escape },
      { weight: 2, arbitrary: fc.constantFrom(' ', 'word', 'x') },
    ),
    { maxLength: 16 },
  )
  .map((parts) => parts.join(''));

describe('truncate properties', () => {
  it('cuts where a walk over one piece per grapheme cuts, with the same closing style', () => {
    fc.assert(
      fc.property(styledText, fc.integer({ min: 0, max: 30 }), fc.constantFrom('…', '...', ''), (text, width, tail) => {
        expect(truncate(text, width, tail)).toBe(truncateByPieces(text, width, tail));
      }),
      { numRuns: 1000 },
    );
  }, 30_000);

  it('never gives a line wider than the width when no grapheme is wider than 2 columns', () => {
    fc.assert(
      fc.property(styledText, fc.integer({ min: 0, max: 30 }), (text, width) => {
        expect(visibleWidth(truncate(text, width))).toBeLessThanOrEqual(Math.max(width, 0));
      }),
    );
  });
});
