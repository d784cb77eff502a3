import { afterEach, describe, expect, it } from 'vitest';
import { findRegionScroll } from './region-scroll';
import { createTerminalScreen, type TerminalScreen, type TerminalScreenOptions } from './terminal-screen';
import { createVirtualTerminal } from './testing';
import { createEmulatedTerminal, type CodePointWidths, type EmulatedTerminal } from './testing/emulated-terminal';

/**
 * When the transcript moves up as an answer streams, the screen scrolls the transcript's region and draws only the
 * rows that differ after the scroll: the bytes of a frame drop to about those of its new line, and a terminal shows
 * what a full repaint would have shown, wide characters and emoji drawn at other widths included.
 */

const screens: Array<{ screen: TerminalScreen; dispose(): void }> = [];
afterEach(() =>
  screens.splice(0).forEach(({ screen, dispose }) => {
    screen.destroy();
    dispose();
  }),
);

/** Adds up code points as tmux 3.3 and xterm.js do: 👍🏽 takes four columns, ❤️ one. */
const ADDS_UP: CodePointWidths = (cp) => {
  if (cp < 0x7f) return 1;
  if (cp === 0x200d || cp === 0xfe0f || (cp >= 0x300 && cp <= 0x36f)) return 0;
  if (cp >= 0x4e00 && cp <= 0x9fff) return 2;
  if (cp >= 0x1f1e6 && cp <= 0x1f1ff) return 1;
  if (cp >= 0x1f300 && cp <= 0x1faff) return 2;
  if (cp === 0x2705) return 2;
  return 1;
};

function virtualScreen(columns: number, rows: number, options?: TerminalScreenOptions) {
  const terminal = createVirtualTerminal(columns, rows);
  const screen = createTerminalScreen(terminal, options);
  screens.push({ screen, dispose: () => undefined });
  const paint = (lines: readonly string[]) => {
    const before = terminal.written().length;
    screen.paint(lines, { row: rows - 1, col: 2 });
    return terminal.written().slice(before);
  };
  return { screen, paint };
}

/** The terminal's rows as text: a cell never written reads as the blank it shows. */
async function shown(terminal: EmulatedTerminal): Promise<string[]> {
  return (await terminal.cells()).map((row) =>
    row.map((cell) => (cell.chars === '' && cell.width !== 0 ? ' ' : cell.chars)).join(''),
  );
}

function emulatedScreen(columns: number, rows: number, options?: TerminalScreenOptions) {
  const terminal = createEmulatedTerminal(columns, rows, ADDS_UP);
  const screen = createTerminalScreen(terminal, options);
  screens.push({ screen, dispose: terminal.dispose });
  return { terminal, screen };
}

/** A streamed answer's lines: styled, with CJK, emoji terminals measure otherwise, and combining marks. */
const answerLine = (index: number) => {
  const kinds = [
    `\x1b[1mline ${index}\x1b[22m plain words`,
    `你好 line ${index} ✅ done`,
    `👍🏽 line ${index} ❤️ e\u0301t\u00e9`,
    `\x1b[36mcode ${index}\x1b[39m 🇯🇵 flag`,
    '',
  ];
  return kinds[index % kinds.length] ?? '';
};

/** The screen while `count` lines of an answer are in: the transcript's newest lines above a rule, editor and footer. */
const streamingFrame = (count: number, rows: number, footer = 'footer') => {
  const transcriptRows = rows - 3;
  const lines = Array.from({ length: count }, (_, index) => answerLine(index)).slice(-transcriptRows);
  while (lines.length < transcriptRows) lines.unshift('');
  return [...lines, '─'.repeat(10), '> typed', footer];
};

/** A deterministic sequence of numbers in [0, 1). */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('a frame whose rows moved up is drawn by scrolling a region', () => {
  it('finds the transcript moved up a row above an editor and footer that stay', () => {
    const before = ['a', 'b', 'c', 'd', 'rule', 'editor'];
    const after = ['b', 'c', 'd', 'e', 'rule', 'editor'];
    expect(findRegionScroll(before, after, 6)).toEqual({ top: 0, bottom: 3, by: 1 });
  });

  it('finds no scroll when nothing moved, or when rows are not known', () => {
    expect(findRegionScroll(['a', 'b', 'c'], ['a', 'x', 'c'], 3)).toBeUndefined();
    expect(findRegionScroll([undefined, undefined, undefined], ['b', 'c', ''], 3)).toBeUndefined();
  });

  it('writes about the bytes of the new line instead of the transcript again', () => {
    const rows = 20;
    const bytesPerFrame = (options?: TerminalScreenOptions) => {
      const { paint } = virtualScreen(60, rows, options);
      paint(streamingFrame(30, rows));
      let total = 0;
      for (let count = 31; count <= 60; count++) total += Buffer.byteLength(paint(streamingFrame(count, rows)));
      return total / 30;
    };
    const plain = bytesPerFrame({ scrollRegions: false });
    const scrolled = bytesPerFrame();
    expect(scrolled).toBeLessThan(plain / 5);
  });

  it('writes the scroll and the new row only, not the rows it moved', () => {
    const { paint } = virtualScreen(40, 8);
    paint(['one', 'two', 'three', 'four', '', 'rule', '> ed', 'footer']);
    const written = paint(['two', 'three', 'four', 'five', '', 'rule', '> ed', 'footer']);
    expect(written).toContain('\x1b[1;4r\x1b[1S\x1b[r');
    expect(written).toContain('five');
    expect(written).not.toMatch(/two|three|four|rule|ed|footer/);
  });

  it('draws the freed rows whole, even with what the row scrolled out above them showed', async () => {
    const { terminal, screen } = emulatedScreen(20, 5);
    const cursor = { row: 4, col: 0 };
    screen.paint(['你好 ✅ same', 'a', 'b', 'rule', '> x'], cursor);
    screen.paint(['a', 'b', '你好 ✅ same', 'rule', '> x'], cursor);
    expect((await shown(terminal)).map((row) => row.trimEnd())).toEqual(['a', 'b', '你好 ✅ same', 'rule', '> x']);
  });

  it('leaves the cursor where the frame puts it', async () => {
    const { terminal, screen } = emulatedScreen(30, 6);
    screen.paint(['a', 'b', 'c', '', 'rule', '> x'], { row: 5, col: 3 });
    screen.paint(['b', 'c', 'd', '', 'rule', '> x'], { row: 5, col: 3 });
    expect(await terminal.cursor()).toEqual({ row: 5, col: 3 });
  });

  it('shows on a terminal that measures emoji otherwise what a full repaint shows, frame after frame, in half the bytes', async () => {
    const rows = 12;
    const columns = 32;
    const scrolled = emulatedScreen(columns, rows);
    const plain = emulatedScreen(columns, rows, { scrollRegions: false });
    // Every cell drawn again each frame.
    const full = emulatedScreen(columns, rows, { scrollRegions: false });
    const next = random(21);
    let count = 0;
    for (let frame = 0; frame < 60; frame++) {
      // Mostly one line more; sometimes several, none, or a footer that changes with it.
      const step = next();
      count += step < 0.6 ? 1 : step < 0.8 ? Math.ceil(next() * 4) : 0;
      const footer = next() < 0.3 ? `footer ${frame} 👍🏽` : 'footer';
      const lines = streamingFrame(count, rows, footer);
      // The streaming line itself grows as words arrive.
      lines[rows - 4] = `${lines[rows - 4] ?? ''} word${frame}`;
      const cursor = { row: rows - 2, col: 2 + (frame % 5) };
      scrolled.screen.paint(lines, cursor);
      plain.screen.paint(lines, cursor);
      full.screen.redrawAll();
      full.screen.paint(lines, cursor);
      const expected = await shown(full.terminal);
      expect(await shown(scrolled.terminal), `frame ${frame}`).toEqual(expected);
      expect(await shown(plain.terminal), `frame ${frame}`).toEqual(expected);
      expect(await scrolled.terminal.cursor()).toEqual(await plain.terminal.cursor());
    }
    expect(scrolled.terminal.written().length).toBeLessThan(plain.terminal.written().length / 2);
  });
});
