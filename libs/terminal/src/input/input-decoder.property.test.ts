import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { InputEvent } from './events';
import { decodeInput } from './input-decoder';

/** Splits a string or byte array at the given cut points. */
function cut<T extends string | Uint8Array>(input: T, points: readonly number[]): T[] {
  const sorted = [...new Set(points.map((p) => p % (input.length + 1)))].sort((a, b) => a - b);
  const pieces: T[] = [];
  let from = 0;
  for (const point of [...sorted, input.length]) {
    pieces.push(input.slice(from, point) as T);
    from = point;
  }
  return pieces;
}

const typedText = (events: readonly InputEvent[]): string =>
  events.map((e) => (e.type === 'key' ? (e.text ?? '') : e.type === 'paste' ? e.text : '')).join('');

const printable = fc.string({ unit: 'grapheme', maxLength: 40 }).map((s) => s.replace(/[\p{Cc}\u0080-\u009f]/gu, ''));
const cuts = fc.array(fc.nat(), { maxLength: 6 });

describe('decoder properties', () => {
  it('decoding never throws, whatever the bytes and however they are split', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), cuts, fc.boolean(), (bytes, points, mouse) => {
        expect(() => decodeInput(cut(bytes, points), { mouse })).not.toThrow();
      }),
    );
  });

  it('decoding never throws on strings full of escape-sequence fragments', () => {
    const fragment = fc.constantFrom(
      '\x1b',
      '[',
      'O',
      '1',
      ';',
      '5',
      '~',
      'u',
      '<',
      'M',
      '200~',
      '201~',
      ':',
      'a',
      '\r',
    );
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 30 }), cuts, (parts, points) => {
        expect(() => decodeInput(cut(parts.join(''), points))).not.toThrow();
      }),
    );
  });

  it('printable text comes out exactly as typed, however the chunks split it', () => {
    fc.assert(
      fc.property(printable, cuts, (text, points) => {
        expect(typedText(decodeInput(cut(text, points)))).toBe(text);
      }),
    );
  });

  it('printable text sent as UTF-8 bytes split anywhere comes out exactly as typed', () => {
    fc.assert(
      fc.property(printable, cuts, (text, points) => {
        expect(typedText(decodeInput(cut(new TextEncoder().encode(text), points)))).toBe(text);
      }),
    );
  });

  it('a bracketed paste comes out whole, however the chunks split it', () => {
    const pasted = fc.string({ maxLength: 60 }).map((s) => s.split('\x1b[201~').join('').replace(/\r/g, ''));
    fc.assert(
      fc.property(pasted, cuts, (text, points) => {
        const events = decodeInput(cut(`\x1b[200~${text}\x1b[201~`, points));
        expect(events).toEqual([{ type: 'paste', text }]);
      }),
    );
  });
});
