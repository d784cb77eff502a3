import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTerminalScreen } from '@pi/host-tui';
import { createVirtualTerminal } from '@pi/host-tui/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createE2eFixture, type E2eFixture } from './e2e-fixture';
import { TMUX_AVAILABLE, startTmuxPane, startTmuxTui, type PaneCapture, type TmuxTui } from './tmux';

/**
 * pi-tui in a real tmux, which draws some emoji at widths of its own (tmux 3.3: 👍🏽 in four columns, ❤️ in one):
 * every character stays in the column pi gives it, the cursor is where the next character goes, and no redraw
 * leaves anything on screen that a full redraw (a resize) would not draw.
 */

let e2e: E2eFixture;
let tmux: TmuxTui | undefined;
beforeEach(async () => void (e2e = await createE2eFixture()));
afterEach(async () => {
  await tmux?.kill();
  tmux = undefined;
  await e2e.dispose();
});

/** What is typed, grapheme by grapheme, with the columns pi gives each: two for every emoji. */
type Typed = ReadonlyArray<readonly [grapheme: string, columns: number]>;
const TYPED: Typed = [
  ['a', 1],
  ['👍🏽', 2],
  ['b', 1],
  [' ', 1],
  ['🇯🇵', 2],
  ['c', 1],
  [' ', 1],
  ['🧑‍💻', 2],
  ['d', 1],
  [' ', 1],
  ['❤️', 2],
  ['e', 1],
];
const textOf = (typed: Typed) => typed.map(([grapheme]) => grapheme).join('');
const columnsOf = (typed: Typed) => typed.reduce((sum, [, columns]) => sum + columns, 0);
const RULE = '─'.repeat(80);
/** Few rows, so that a handful of prompts scrolls the transcript. */
const ROWS = 12;

/** The editor's row: under the first of the two rules around it. */
function editorRow(capture: PaneCapture): number {
  return capture.lines.indexOf(RULE) + 1;
}

/**
 * Walks the cursor from the end of the text to its start, one grapheme at a time: at each stop tmux's cursor is in
 * pi's column for that grapheme and on that grapheme (or, for an emoji tmux draws otherwise, on part of it).
 */
async function walkBack(tui: TmuxTui, typed: Typed): Promise<void> {
  await tui.press('End');
  let col = columnsOf(typed);
  const end = await tui.waitFor((c) => c.cursor.col === col, `the cursor after the text, at column ${col}`);
  expect(end.cursor.row).toBe(editorRow(end));
  expect(end.cursorCharacter).toBe(' ');
  for (const [grapheme, columns] of [...typed].reverse()) {
    col -= columns;
    await tui.press('Left');
    const at = await tui.waitFor((c) => c.cursor.col === col, `the cursor on ${grapheme} at column ${col}`);
    if (/^[ -~]$/.test(grapheme)) expect(at.cursorCharacter, `the character at column ${col}`).toBe(grapheme);
    else expect(['', ' '].includes(at.cursorCharacter) || grapheme.includes(at.cursorCharacter)).toBe(true);
  }
}

/** The screen now equals the screen a full redraw draws (tmux resized and back): nothing stale is left on it. */
async function expectNothingStale(tui: TmuxTui, what: string): Promise<void> {
  const before = await tui.waitFor(() => true, what);
  await tui.redrawnAfter(() => tui.resize(81, ROWS));
  await tui.redrawnAfter(() => tui.resize(80, ROWS));
  const redrawn = await tui.waitFor((c) => c.lines.includes(RULE), 'the screen redrawn at 80 columns');
  expect(before.lines.join('\n'), what).toBe(redrawn.lines.join('\n'));
  expect(before.cursor).toEqual(redrawn.cursor);
}

describe.skipIf(!TMUX_AVAILABLE)('wide text in a real tmux', () => {
  it('keeps every character in its column and leaves no ghosts as the prompt and the transcript change', async () => {
    const session = await e2e.startSession();
    const tui = await startTmuxTui(e2e.sandbox, ['--session', session.sessionId], 80, ROWS);
    tmux = tui;
    await tui.waitFor((c) => c.lines.some((line) => line.includes('● connected')), 'the TUI connected');

    await tui.type(textOf(TYPED));
    await walkBack(tui, TYPED);

    // Deleting an emoji shifts the rest of the row left: the old renderer left a character of it behind.
    await tui.press('Home', 'Right', 'Right', 'BSpace');
    const edited: Typed = TYPED.filter(([grapheme]) => grapheme !== '👍🏽');
    await walkBack(tui, edited);
    await expectNothingStale(tui, 'the prompt after deleting an emoji');

    await tui.press('Enter');
    const answered = await tui.waitFor(
      (c) => c.lines.some((line) => line.startsWith('  You said: ab ')),
      'the answer to the prompt',
    );
    expect(answered.lines[editorRow(answered)]).toBe('');
    for (const word of ['one', 'two', 'three', 'four']) {
      await tui.type(`${word} 👍🏽 🇯🇵 🧑‍💻 ❤️ ${word}`);
      await tui.press('Enter');
      await tui.waitFor(
        (c) => c.lines.some((line) => line.startsWith(`  You said: ${word} `) && line.endsWith(` ${word}`)),
        `the answer to "${word}"`,
      );
    }
    await expectNothingStale(tui, 'the transcript after five prompts with emoji');

    await tui.press('PPage');
    await tui.waitFor((c) => c.lines.some((line) => line.includes('End follows the output')), 'the scrolled view');
    await tui.press('End');
    await tui.waitFor((c) => !c.lines.some((line) => line.includes('End follows the output')), 'the followed view');
    await expectNothingStale(tui, 'the transcript scrolled up and back');
  });

  it('keeps a flag drawn where the left half of a wide emoji was', async () => {
    // Frame one puts 🧑 (two columns in tmux) at column 3; frame two draws 🇯🇵 at column 2, over 🧑's left half,
    // and a blank at column 4. Blanking by ECH left 🧑's right half behind, and the blank written there wiped 🇵.
    const terminal = createVirtualTerminal(20, 2);
    const screen = createTerminalScreen(terminal);
    screen.paint(['xxx🧑‍💻 end'], null);
    screen.paint(['xx🇯🇵 zz'], null);
    const frames = join(e2e.sandbox.root, 'frames');
    await writeFile(frames, terminal.written());
    screen.destroy();
    tmux = await startTmuxPane(e2e.sandbox, ['sh', '-c', `cat '${frames}'; exec sleep 60`], 20, 2);
    const shown = await tmux.waitFor((c) => c.lines[0] !== '', 'the two frames drawn');
    expect(shown.lines[0]).toBe('xx🇯🇵 zz');
  });

  it('shows a transcript with emoji scrolled up frame by frame as one full paint of the last frame shows it', async () => {
    // The screen scrolls the transcript's region when its rows move up; tmux moves its rows with each emoji at the
    // width tmux drew it, so the rows it moved still read as they did.
    const lineOf = (index: number) =>
      [`a${index} 👍🏽 b 🇯🇵 c`, `你好 ${index} 🧑‍💻 d ❤️ e`, `\x1b[1mplain ${index}\x1b[22m words`, ''][index % 4] ?? '';
    const frameOf = (count: number) => {
      const transcript = Array.from({ length: count }, (_, index) => lineOf(index)).slice(-6);
      while (transcript.length < 6) transcript.unshift('');
      return [...transcript, '─'.repeat(20), `> typed ${count} 👍🏽`];
    };
    const scrolled = createVirtualTerminal(20, 8);
    const scrolledScreen = createTerminalScreen(scrolled);
    for (let count = 1; count <= 14; count++) scrolledScreen.paint(frameOf(count), { row: 7, col: 2 });
    const scrolledFrames = scrolled.written();
    scrolledScreen.destroy();
    const once = createVirtualTerminal(20, 8);
    const onceScreen = createTerminalScreen(once);
    onceScreen.paint(frameOf(14), { row: 7, col: 2 });
    const oneFrame = once.written();
    onceScreen.destroy();
    expect(scrolledFrames).toContain('S\x1b[r');

    const shownBy = async (written: string, name: string) => {
      const file = join(e2e.sandbox.root, name);
      await writeFile(file, written);
      const pane = await startTmuxPane(e2e.sandbox, ['sh', '-c', `cat '${file}'; exec sleep 60`], 20, 8);
      try {
        return (await pane.waitFor((c) => c.lines.some((line) => line.includes('typed 14')), `${name} drawn`)).lines;
      } finally {
        await pane.kill();
      }
    };
    expect(await shownBy(scrolledFrames, 'scrolled-frames')).toEqual(await shownBy(oneFrame, 'one-frame'));
  });

  it('shows tabs in the transcript as spaces to the next tab stop', async () => {
    const session = await e2e.startSession();
    const tui = await startTmuxTui(e2e.sandbox, ['--session', session.sessionId]);
    tmux = tui;
    await tui.waitFor((c) => c.lines.some((line) => line.includes('● connected')), 'the TUI connected');
    await tui.paste('x\ty\tz');
    await tui.press('Enter');
    const answered = await tui.waitFor((c) => c.lines.includes('› x   y   z'), 'the prompt with its tabs');
    expect(answered.lines).toContain('  You said: x y   z');
  });
});
