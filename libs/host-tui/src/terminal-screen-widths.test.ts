import { graphemeWidth, isWidthUncertain, splitGraphemes } from '@pi/terminal';
import { afterEach, assert, describe, expect, it } from 'vitest';
import { createTerminalScreen, type TerminalScreen } from './terminal-screen';
import { createEmulatedTerminal, type CodePointWidths, type ShownCell } from './testing/emulated-terminal';

/**
 * The screen on terminals that measure some graphemes otherwise than we do: whatever width the terminal gives
 * an emoji, every other character stays in its column, no cell of an earlier frame stays visible, and nothing
 * spills onto another row.
 */

interface TerminalTables {
  /** A skin tone (U+1F3FB–U+1F3FF). */
  readonly modifier: 1 | 2;
  /** One regional indicator, half a flag. */
  readonly indicator: 1 | 2;
  /** Any other emoji pictograph. */
  readonly pictograph: 1 | 2;
}

function tables({ modifier, indicator, pictograph }: TerminalTables): CodePointWidths {
  return (cp) => {
    if (cp < 0x7f) return 1;
    if (cp === 0x200d || cp === 0xfe0f || cp === 0xfe0e || cp === 0x20e3 || (cp >= 0x300 && cp <= 0x36f)) return 0;
    if (cp >= 0xe0020 && cp <= 0xe007f) return 0;
    if (cp >= 0x4e00 && cp <= 0x9fff) return 2;
    if (cp >= 0x1f3fb && cp <= 0x1f3ff) return modifier;
    if (cp >= 0x1f1e6 && cp <= 0x1f1ff) return indicator;
    if (cp >= 0x1f300 && cp <= 0x1faff) return pictograph;
    return 1;
  };
}

/** Adds up code points, as tmux 3.3 and xterm.js do: 👍🏽 and 🧑‍💻 take four columns, ❤️ and 1️⃣ one. */
const ADDS_UP = tables({ modifier: 2, indicator: 1, pictograph: 2 });
/** Tables older than the emoji: 🐢 takes one column. */
const OLD_TABLES = tables({ modifier: 1, indicator: 1, pictograph: 1 });
/** Regional indicators two columns each: a flag takes four, a lone indicator two where we count one. */
const WIDE_INDICATORS = tables({ modifier: 2, indicator: 2, pictograph: 2 });

const CASES = [
  { kind: 'a skin tone drawn wider (4 for 2)', grapheme: '👍🏽', terminal: ADDS_UP },
  { kind: 'a ZWJ sequence drawn wider (4 for 2)', grapheme: '🧑‍💻', terminal: ADDS_UP },
  { kind: 'a flag drawn wider (4 for 2)', grapheme: '🇯🇵', terminal: WIDE_INDICATORS },
  { kind: 'a lone regional indicator drawn wider (2 for 1)', grapheme: '🇯', terminal: WIDE_INDICATORS },
  { kind: 'VS16 drawn narrower (1 for 2)', grapheme: '❤️', terminal: ADDS_UP },
  { kind: 'a keycap drawn narrower (1 for 2)', grapheme: '1️⃣', terminal: ADDS_UP },
  { kind: 'a pictograph the tables predate (1 for 2)', grapheme: '🐢', terminal: OLD_TABLES },
  { kind: 'a flag drawn as we measure it', grapheme: '🇯🇵', terminal: ADDS_UP },
];

const screens: Array<{ screen: TerminalScreen; dispose(): void }> = [];
afterEach(() =>
  screens.splice(0).forEach(({ screen, dispose }) => {
    screen.destroy();
    dispose();
  }),
);

function emulated(columns: number, rows: number, widths: CodePointWidths) {
  const terminal = createEmulatedTerminal(columns, rows, widths);
  const screen = createTerminalScreen(terminal);
  screens.push({ screen, dispose: terminal.dispose });
  return { terminal, screen };
}

const widthOf = (line: string) => splitGraphemes(line).reduce((sum, g) => sum + graphemeWidth(g), 0);

/**
 * Checks one row against the line we painted: each certain grapheme in its column, the columns we gave an
 * uncertain one showing it, part of it or blanks, and blanks after the end.
 */
function expectRow(cells: readonly ShownCell[], line: string, what: string): void {
  // A cell never written shows no characters; it reads as the blank it is.
  const chars = (col: number) => {
    const cell = cells[col];
    return cell === undefined ? '' : cell.chars !== '' || cell.width === 0 ? cell.chars : ' ';
  };
  const shown = () => cells.map((_, col) => chars(col)).join('');
  let x = 0;
  for (const grapheme of splitGraphemes(line)) {
    const width = graphemeWidth(grapheme);
    for (let col = x; col < x + width; col++) {
      const at = chars(col);
      const fine = isWidthUncertain(grapheme)
        ? at === '' || at === ' ' || grapheme.includes(at)
        : col === x
          ? at === grapheme
          : cells[col]?.width === 0;
      if (!fine) assert.fail(`${what}: column ${col} shows ${JSON.stringify(at)} in "${shown()}" for "${line}"`);
    }
    x += width;
  }
  for (let col = x; col < cells.length; col++) {
    if (chars(col) !== ' ')
      assert.fail(`${what}: stale ${JSON.stringify(chars(col))} at column ${col} in "${shown()}"`);
  }
}

describe.each(CASES)('the screen with $kind: $grapheme', ({ grapheme: g, terminal: widths }) => {
  it('keeps every other character in its column and leaves no stale cell as the row changes', async () => {
    const { terminal, screen } = emulated(24, 3, widths);
    const frames = [`a${g}b`, `xa${g}b`, `a${g}bcd`, `a${g}`, 'ab', `${g}${g}z`, `c${g}d${g}e`, '', `a${g}b`];
    for (const line of frames) {
      screen.paint([line, 'below it'], { row: 0, col: widthOf(line) });
      const cells = await terminal.cells();
      expectRow(cells[0] ?? [], line, `after painting "${line}"`);
      expectRow(cells[1] ?? [], 'below it', `the row below, after painting "${line}"`);
      expect(await terminal.cursor()).toEqual({ row: 0, col: widthOf(line) });
    }
  });

  it('leaves no stale cell when lines move between rows, as the transcript scrolls', async () => {
    const { terminal, screen } = emulated(24, 4, widths);
    const lines = [`one ${g} two`, 'plain words here', `${g} three ${g}`, 'more plain words', `four ${g}`];
    for (let top = 0; top + 4 <= lines.length; top++) {
      const frame = lines.slice(top, top + 4);
      screen.paint(frame, null);
      const cells = await terminal.cells();
      frame.forEach((line, row) => expectRow(cells[row] ?? [], line, `row ${row} scrolled by ${top}`));
    }
  });

  it('draws it once: changes beside it on its row write only themselves, and the row stays right', async () => {
    const { terminal, screen } = emulated(24, 2, widths);
    const frames = [`ab ${g} cd`, `ab ${g} ce`, `xb ${g} ce`, `xb ${g} cef`, `xb ${g}`, `xb ${g} c`];
    screen.paint([frames[0] ?? '', 'below it'], null);
    for (const line of frames.slice(1)) {
      const before = terminal.written().length;
      screen.paint([line, 'below it'], null);
      expect(terminal.written().slice(before)).not.toContain(g);
      expectRow((await terminal.cells())[0] ?? [], line, `after painting "${line}"`);
    }
  });

  it('cuts it at the right edge: nothing spills onto the next row or scrolls the screen', async () => {
    const { terminal, screen } = emulated(10, 3, widths);
    const edge = `abcdefgh${g}`;
    screen.paint([edge, 'next row', 'last row'], null);
    screen.paint([edge, 'next row', `zz ${g}${g}${g}${g}${g}`], null);
    const cells = await terminal.cells();
    expectRow(cells[0] ?? [], edge, 'the edge row');
    expectRow(cells[1] ?? [], 'next row', 'the row under it');
  });
});

describe('the screen on a terminal that measures as we do', () => {
  it('writes plain and CJK rows without positioning moves between characters', () => {
    const { terminal, screen } = emulated(20, 2, ADDS_UP);
    const before = terminal.written().length;
    screen.paint(['plain 你好 text', 'é́ café'], null);
    const frame = terminal.written().slice(before);
    expect(frame).toContain('你好');
    // eslint-disable-next-line no-control-regex -- the moves start with ESC
    expect(frame).not.toMatch(/\x1b\[\d*[XG]/);
  });

  it('turns autowrap off while it runs and back on when destroyed', () => {
    const terminal = createEmulatedTerminal(20, 2, ADDS_UP);
    const screen = createTerminalScreen(terminal);
    expect(terminal.written()).toContain('\x1b[?7l');
    screen.destroy();
    terminal.dispose();
    expect(terminal.written().lastIndexOf('\x1b[?7h')).toBeGreaterThan(terminal.written().lastIndexOf('\x1b[?7l'));
  });

  it('draws a tab as spaces to the next tab stop', async () => {
    const { terminal, screen } = emulated(20, 2, ADDS_UP);
    screen.paint(['a\tb', 'abcd\te\tf'], null);
    expect(screen.text()).toEqual(['a   b               ', 'abcd    e   f       ']);
    const cells = await terminal.cells();
    expectRow(cells[0] ?? [], 'a   b', 'the first row');
  });
});
