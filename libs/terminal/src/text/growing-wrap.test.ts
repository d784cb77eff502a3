import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GrowingTextWrap } from './growing-wrap';
import { wrapText } from './wrap';

/** What a model streams: words, spaces, newlines (single, paired, CRLF), tabs, wide graphemes and styles. */
const piece = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: fc.constantFrom('a', 'b', 'word', 'x.y', ' ', ' '), maxLength: 10 }) },
  { weight: 3, arbitrary: fc.constantFrom('\n', '\n\n', '\r\n', '\r', '\t', '```', '  - ', '    ') },
  {
    weight: 2,
    arbitrary: fc.constantFrom('🐢', '中文', 'e\u0301', '👨‍👩‍👧', fc.string({ unit: 'grapheme', maxLength: 4 })),
  },
  { weight: 1, arbitrary: fc.constantFrom('\x1b[31m', '\x1b[1m', '\x1b[0m', '\x1b[39m', '\x1b[38;5;9m', '\x1b[') },
  // What joins the grapheme before it when it arrives in the next delta: a mark, a keycap, a skin tone, a ZWJ.
  { weight: 1, arbitrary: fc.constantFrom('\u0301', '\ufe0f\u20e3', '🏽', '\u200d', '\ufe0f', '1') },
);
const deltas = fc.array(
  piece.map((p) => (typeof p === 'string' ? p : '')),
  { minLength: 1, maxLength: 40 },
);
const decorate = (row: string, index: number): string => (index === 0 ? '› ' : '  ') + row;

/** Grows a text part by part; at every step the rows are those wrapText gives the whole text, decorated. */
function growsAsWrapTextWraps(parts: readonly string[], width: number): void {
  const wrap = new GrowingTextWrap(decorate);
  let text = '';
  for (const part of parts) {
    text += part;
    expect(wrap.wrap(text, width)).toEqual(wrapText(text, width).map(decorate));
  }
}

describe('GrowingTextWrap', () => {
  it('gives a growing text at every step the rows wrapText gives the whole text, decorated', () => {
    fc.assert(fc.property(deltas, fc.integer({ min: 1, max: 30 }), growsAsWrapTextWraps), { numRuns: 300 });
  }, 30_000);

  it('starts over when the width changes (a resize) and when the text is not the last one grown', () => {
    const steps = fc.array(
      fc.record({
        part: piece.map((p) => (typeof p === 'string' ? p : '')),
        width: fc.integer({ min: 1, max: 30 }),
        restart: fc.boolean(),
      }),
      { minLength: 1, maxLength: 40 },
    );
    fc.assert(
      fc.property(steps, (list) => {
        const wrap = new GrowingTextWrap(decorate);
        let text = '';
        for (const { part, width, restart } of list) {
          // A restart is another answer: shorter, or the same length with other text.
          text = restart ? part + text.slice(part.length + 1) : text + part;
          expect(wrap.wrap(text, width)).toEqual(wrapText(text, width).map(decorate));
        }
      }),
      { numRuns: 300 },
    );
  }, 30_000);

  it('gives a long paragraph streamed in small pieces the rows wrapText gives it, at every step', () => {
    const words = fc.array(
      fc.oneof(
        { weight: 8, arbitrary: fc.constantFrom('a', 'the', 'streamed', 'wordy', 'x.y,', '  ', ' ', 'longerthanarow') },
        {
          weight: 2,
          arbitrary: fc.constantFrom('中文', '🐢', 'e', '\u0301', '\ufe0f\u20e3', '🏽', '\x1b[1m', '\x1b[0m'),
        },
        { weight: 1, arbitrary: fc.constantFrom('\n', '\t', '\r') },
      ),
      { minLength: 1, maxLength: 120 },
    );
    fc.assert(fc.property(words, fc.integer({ min: 1, max: 24 }), growsAsWrapTextWraps), { numRuns: 300 });
  }, 30_000);

  it('wraps only the last rows of a paragraph as it grows, not the whole paragraph each time', () => {
    let decorated = 0;
    const wrap = new GrowingTextWrap((row) => {
      decorated++;
      return row;
    });
    let text = 'the answer:\n';
    const perStep: number[] = [];
    for (let index = 0; index < 400; index++) {
      text += `word${index % 7} `;
      const before = decorated;
      wrap.wrap(text, 40);
      perStep.push(decorated - before);
    }
    expect(wrapText(text, 40).length).toBeGreaterThan(60);
    expect(Math.max(...perStep.slice(10))).toBeLessThanOrEqual(3);
  });

  it('wraps the completed lines once for a width, however often the text grows after them', () => {
    let decorated = 0;
    const wrap = new GrowingTextWrap((row) => {
      decorated++;
      return row;
    });
    const lines = Array.from({ length: 50 }, (_, index) => `line ${index} of an answer`).join('\n');
    wrap.wrap(`${lines}\n`, 80);
    expect(decorated).toBe(51); // 50 lines and the empty one after the newline
    for (const word of ['the', ' last', ' line']) wrap.wrap(`${lines}\n${word}`, 80);
    expect(decorated).toBe(54);
    wrap.wrap(`${lines}\nthe last line`, 40);
    expect(decorated).toBe(105);
    wrap.invalidate();
    wrap.wrap(`${lines}\nthe last line`, 40);
    expect(decorated).toBe(156);
  });

  it('hands out a new array each time, so a caller changing one does not change the next', () => {
    const wrap = new GrowingTextWrap();
    const first = wrap.wrap('one\ntwo', 10);
    first.push('changed');
    expect(wrap.wrap('one\ntwo', 10)).toEqual(['one', 'two']);
  });
});
