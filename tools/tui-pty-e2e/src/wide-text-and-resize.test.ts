import { afterEach, beforeEach, expect, it } from 'vitest';
import { createE2eFixture, type E2eFixture } from './e2e-fixture';
import type { Screen } from './screen';

let e2e: E2eFixture;
beforeEach(async () => void (e2e = await createE2eFixture()));
afterEach(() => e2e.dispose());

const WIDE = '你好 🐢';
const LONG = `a line long enough to wrap at fifty columns: ${WIDE} and the end`;

/** The columns a row uses: up to the end of its last non-blank cell. */
function usedColumns(screen: Screen, row: number): number {
  const cells = screen.cells(row);
  for (let column = cells.length - 1; column >= 0; column--) {
    const cell = cells[column];
    if (cell !== undefined && cell.chars.trim() !== '') return column + cell.width;
  }
  return 0;
}

/** The editor's row: between the two rules above the footer. */
function editorRow(screen: Screen): number {
  const rules = screen.lines.flatMap((line, row) => (/^─+$/.test(line) ? [row] : []));
  expect(rules).toHaveLength(2);
  return (rules[0] ?? 0) + 1;
}

/** The transcript's rows as one text: what was said, however it is wrapped. */
function transcriptText(screen: Screen): string {
  const end = screen.lines.findIndex((line) => /^─+$/.test(line));
  return screen.lines.slice(0, end).join(' ').replace(/\s+/g, ' ').trim();
}

it('puts wide characters in two columns each, in the editor and in the transcript', async () => {
  const session = await e2e.startSession();
  const tui = e2e.spawnTui(['--session', session.sessionId]);
  await tui.waitForScreen((screen) => screen.text.includes('● connected'), 'the TUI connected');

  tui.write(WIDE);
  const typed = await tui.waitForScreen((screen) => screen.text.includes(WIDE), 'the typed text');
  const row = editorRow(typed);
  // A blank reads as a space whether it was written or erased (a scrolled region's freed rows are erased).
  const cells = typed
    .cells(row)
    .map((cell) => (cell.chars === '' && cell.width === 1 ? { ...cell, chars: ' ' } : cell));
  expect(cells.slice(0, 7)).toEqual([
    { chars: '你', width: 2 },
    { chars: '', width: 0 },
    { chars: '好', width: 2 },
    { chars: '', width: 0 },
    { chars: ' ', width: 1 },
    { chars: '🐢', width: 2 },
    { chars: '', width: 0 },
  ]);
  // The cursor sits right after the turtle, where the next character goes.
  expect(typed.cursor).toEqual({ row, column: 7 });

  tui.press('enter');
  const answered = await tui.waitForScreen((screen) => screen.text.includes(`You said: ${WIDE}`), 'the answer');
  const said = answered.find('You said: ');
  expect(said).toBeDefined();
  const { row: answerRow, column } = said ?? { row: 0, column: 0 };
  expect(answered.find('好')).toBeDefined();
  expect(answered.cells(answerRow)[column + 12]).toEqual({ chars: '好', width: 2 });
  expect(answered.cells(answerRow)[column + 15]).toEqual({ chars: '🐢', width: 2 });
  expect(usedColumns(answered, answerRow)).toBe(column + 17);
});

it('re-lays out the screen for a narrower terminal and back', async () => {
  const session = await e2e.startSession();
  const tui = e2e.spawnTui(['--session', session.sessionId], { cols: 80, rows: 24 });
  await tui.waitForScreen((screen) => screen.text.includes('● connected'), 'the TUI connected');
  tui.write(LONG);
  tui.press('enter');
  await tui.waitForScreen((screen) => screen.text.includes(`You said: ${LONG}`), 'the answer');
  tui.write(WIDE);
  const before = await tui.waitForScreen((screen) => screen.lines[editorRow(screen)] === WIDE, 'the typed text');
  expect(before.lines.filter((line) => line.includes(LONG))).toHaveLength(2);

  await tui.resize(50, 20);
  // The footer's status line is cut to the new width (the old one, merely clipped, has no ellipsis there); the
  // model line fits as it is.
  const status = 20 - 2;
  const narrow = await tui.waitForScreen(
    (screen) =>
      /^● connected {2}.*…$/.test(screen.lines[status] ?? '') &&
      usedColumns(screen, status) === 50 &&
      screen.lines.at(-1) === 'offline/echo · thinking off',
    'the footer cut to 50 columns',
  );
  expect(narrow.lines.filter((line) => /^─+$/.test(line))).toEqual(['─'.repeat(50), '─'.repeat(50)]);
  // The transcript is re-wrapped: nothing lost, nothing wider than the terminal, nothing left of the old layout.
  expect(transcriptText(narrow)).toBe(`› ${LONG} You said: ${LONG}`);
  expect(narrow.lines.some((line) => line.includes(LONG))).toBe(false);
  for (let row = 0; row < narrow.rows; row++) expect(usedColumns(narrow, row)).toBeLessThanOrEqual(50);
  const row = editorRow(narrow);
  expect(narrow.lines[row]).toBe(WIDE);
  expect(narrow.cursor).toEqual({ row, column: 7 });

  await tui.resize(80, 24);
  const back = await tui.waitForScreen((screen) => screen.text === before.text, 'the same screen as before at 80×24');
  expect(back.cursor).toEqual(before.cursor);
});
