import { decodeInput, defaultKeymap, visibleWidth } from '@pi/terminal';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Editor } from './editor';
import { boundaries } from './segments';
import { KEYS } from './testing';

const input = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }) },
  { weight: 2, arbitrary: fc.constantFrom('🐢', '中文', 'e\u0301', '👨‍👩‍👧', ' ', 'word ') },
  { weight: 4, arbitrary: fc.constantFrom(...Object.values(KEYS)) },
  { weight: 1, arbitrary: fc.constantFrom(`\x1b[200~${'x\n'.repeat(20)}\x1b[201~`, '\x1b[200~a\tb\x1b[201~') },
);

describe('editor properties', () => {
  it('whatever is typed, lines fit the width, the cursor is on screen and between graphemes', () => {
    fc.assert(
      fc.property(fc.array(input, { maxLength: 25 }), fc.integer({ min: 4, max: 30 }), (inputs, width) => {
        const editor = new Editor();
        for (const chunk of inputs) {
          for (const event of decodeInput(chunk)) editor.handle(event, defaultKeymap);
          const { lines, cursor } = editor.render(width);
          for (const line of lines) expect(visibleWidth(line)).toBeLessThanOrEqual(width);
          expect(cursor.row).toBeLessThan(lines.length);
          expect(cursor.col).toBeLessThan(width);
          const { text, cursor: offset } = editor.snapshot();
          expect(boundaries(text)).toContain(offset);
        }
      }),
    );
  });
});
