import { afterEach, describe, expect, it } from 'vitest';
import { createTerminalScreen, type TerminalScreen } from './terminal-screen';
import { createVirtualTerminal } from './testing';
import { TranscriptView } from './transcript-view';

/**
 * The screen paints only what changed: a row whose styled line is the one on screen writes nothing, so a frame
 * costs what its changed rows cost, however long the transcript above them.
 */

const screens: TerminalScreen[] = [];
afterEach(() => screens.splice(0).forEach((screen) => screen.destroy()));

function screenOf(columns: number, rows: number) {
  const terminal = createVirtualTerminal(columns, rows);
  const screen = createTerminalScreen(terminal);
  screens.push(screen);
  /** What painting `lines` writes to the terminal. */
  const paint = (lines: readonly string[], cursor = { row: rows - 1, col: 0 }) => {
    const before = terminal.written().length;
    screen.paint(lines, cursor);
    return terminal.written().slice(before);
  };
  return { terminal, screen, paint };
}

// eslint-disable-next-line no-control-regex -- terminal sequences start with ESC
const SEQUENCES = /\x1b\[[0-9;?]*[A-Za-z]|\x1b[78]|\s/g;
/** The characters a write draws, without its escape sequences and blanks (blessed moves over blank cells). */
const drawn = (written: string) => written.replace(SEQUENCES, '');

const styled = (text: string) => `\x1b[36m›\x1b[39m ${text} \x1b[2m─ 你好 ✅\x1b[22m`;

describe('the screen paints only what changed', () => {
  it('draws nothing when a frame repeats the one on screen', () => {
    const { paint } = screenOf(40, 4);
    const frame = [styled('one'), 'plain two', '', styled('four')];
    expect(drawn(paint(frame))).toContain('one');
    expect(drawn(paint(frame))).toBe('');
    expect(drawn(paint([...frame]))).toBe('');
  });

  it('draws only the row that changed, and nothing of the rows around it', () => {
    const { paint } = screenOf(40, 4);
    paint([styled('one'), 'plain two', 'three', styled('four')]);
    const written = drawn(paint([styled('one'), 'plain 2wo', 'three', styled('four')]));
    expect(written).toContain('2');
    expect(written).not.toMatch(/one|three|four|你好/);
  });

  it('draws every row again after redrawAll, even rows whose line is unchanged', () => {
    const { screen, paint } = screenOf(40, 3);
    const frame = ['first row', styled('second'), 'third row'];
    paint(frame);
    screen.redrawAll();
    const written = drawn(paint(frame));
    expect(written).toContain('firstrow');
    expect(written).toContain('second');
    expect(screen.text().map((row) => row.trimEnd())).toEqual(['first row', '› second ─ 你好 ✅', 'third row']);
  });

  it('draws only the changed character of a row with CJK and emoji, not its wide characters again', () => {
    const { screen, paint } = screenOf(40, 2);
    const row = (end: string) => `你好 ✅ 🇯🇵 ❤️ 👍🏽 ${styled(end)}`;
    paint([row('end1'), 'below']);
    const written = paint([row('end2'), 'below']);
    expect(drawn(written)).toBe('2');
    expect(screen.text()[0]?.trimEnd()).toBe('你好 ✅ 🇯🇵 ❤️ 👍🏽 › end2 ─ 你好 ✅');
  });

  it('writes nothing for a row with emoji when the frame leaves it as it is', () => {
    const { paint } = screenOf(40, 2);
    paint(['🇯🇵 你好 👍🏽', 'typed a']);
    const written = paint(['🇯🇵 你好 👍🏽', 'typed ab']);
    expect(drawn(written)).toBe('b');
    expect(written).not.toContain('\x1b[1;');
  });

  it('draws a wide character again where a narrow one replaces it, and blanks its right half', () => {
    const { screen, paint } = screenOf(10, 1);
    paint(['a你b✅c']);
    paint(['a b c']);
    expect(screen.text()).toEqual(['a b c     ']);
    paint(['a你b✅c']);
    expect(screen.text()).toEqual(['a你b✅c   ']);
  });

  it('lays out every row again after a resize, even rows whose line is unchanged', async () => {
    const { terminal, screen, paint } = screenOf(12, 2);
    const frame = ['abcdefghij', 'klmnop'];
    paint(frame);
    const resized = new Promise<void>((resolve) => screen.onResize(resolve));
    terminal.resize(6, 3);
    await resized;
    paint(frame);
    expect(screen.text()).toEqual(['abcdef', 'klmnop', '      ']);
  });

  it('takes an escape sequence other than SGR as zero width and does not draw it', () => {
    const { screen, paint } = screenOf(10, 1);
    paint(['a\x1b[2Kb\x1b]8;;https://x\x07c']);
    expect(screen.text()).toEqual(['abc       ']);
  });

  it('writes each frame to the terminal in one write, inside the synchronized-output markers', () => {
    const { terminal, paint } = screenOf(20, 6);
    const writes: string[] = [];
    const write = terminal.output.write.bind(terminal.output);
    terminal.output.write = ((chunk: string, ...rest: never[]) => {
      writes.push(String(chunk));
      return write(chunk, ...rest);
    }) as typeof terminal.output.write;
    const frames = [
      ['one', 'two', 'three', 'four', '', '> a'],
      ['two', 'three', 'four', 'five', '', '> a'],
      ['two', 'three', 'four', 'five 你好 ✅', '', '> ab'],
      ['two', 'three', 'four', 'five 你好 ✅', '', '> ab'],
    ];
    for (const frame of frames) {
      writes.length = 0;
      paint(frame, { row: 5, col: frame[5]?.length ?? 0 });
      expect(writes).toHaveLength(1);
      expect(writes[0]?.startsWith('\x1b[?2026h')).toBe(true);
      expect(writes[0]?.endsWith('\x1b[?2026l')).toBe(true);
    }
  });

  it('writes the same bytes for a streamed word with 5,000 entries in the transcript as with 10', () => {
    const streamedWord = (entries: number) => {
      const { paint } = screenOf(60, 12);
      const transcript = new TranscriptView();
      for (let index = 0; index < entries; index++)
        transcript.upsert(`entry:${index}`, { render: () => ['', styled(`entry ${index % 10}`)] });
      const streaming = (text: string) => ({ render: () => ['', `answer: ${text}`] });
      transcript.upsert('answer', streaming('the quick'));
      const frame = () => [...transcript.viewport(60, 10).lines, '─'.repeat(60), '> typed'];
      paint(frame());
      transcript.upsert('answer', streaming('the quick brown'));
      return paint(frame());
    };
    const small = streamedWord(10);
    const large = streamedWord(5000);
    expect(drawn(small)).toBe('brown');
    expect(large).toBe(small);
    expect(Buffer.byteLength(large)).toBe(Buffer.byteLength(small));
  });
});
