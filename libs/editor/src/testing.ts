import { decodeInput, defaultKeymap, graphemeWidth, splitGraphemes, type Keymap } from '@pi/terminal';
import type { EditResult } from './edit-result';
import { Editor, type EditorOptions } from './editor';

/**
 * Test support for hosts and for this library: drive an editor with raw terminal input.
 */

/** Named inputs for tests, as a terminal sends them. */
export const KEYS = {
  enter: '\r',
  ctrlJ: '\n',
  shiftEnter: '\x1b[13;2u',
  altEnter: '\x1b\r',
  backspace: '\x7f',
  altBackspace: '\x1b\x7f',
  delete: '\x1b[3~',
  left: '\x1b[D',
  right: '\x1b[C',
  up: '\x1b[A',
  down: '\x1b[B',
  home: '\x1b[H',
  end: '\x1b[F',
  ctrlLeft: '\x1b[1;5D',
  ctrlRight: '\x1b[1;5C',
  altB: '\x1bb',
  ctrlA: '\x01',
  ctrlE: '\x05',
  ctrlK: '\x0b',
  ctrlU: '\x15',
  ctrlW: '\x17',
  ctrlZ: '\x1a',
  altZ: '\x1bz',
  ctrlC: '\x03',
} as const;

/** An editor driven by raw terminal input through the decoder and a keymap, as the host will drive it. */
export function editorDriver(options: EditorOptions = {}, keymap: Keymap = defaultKeymap) {
  const editor = new Editor(options);
  const send = (input: string): EditResult[] => decodeInput(input).map((event) => editor.handle(event, keymap));
  return {
    editor,
    send,
    /** Sends a key by name; returns the last result. */
    press(...keys: (keyof typeof KEYS)[]): EditResult | undefined {
      let last: EditResult | undefined;
      for (const name of keys) last = send(KEYS[name]).at(-1);
      return last;
    },
    type(text: string): void {
      send(text);
    },
    pasteText(text: string): EditResult | undefined {
      return send(`\x1b[200~${text}\x1b[201~`).at(-1);
    },
    /** The rendered text with a `|` where the cursor is (width 80 unless given). */
    view(width = 80): string {
      const { lines, cursor } = editor.render(width);
      return lines.map((line, row) => (row === cursor.row ? sliceColumns(line, cursor.col) : line)).join('\n');
    },
  };
}

/** Inserts `|` at a display column of a rendered line. */
function sliceColumns(line: string, col: number): string {
  let used = 0;
  let out = '';
  const graphemes = splitGraphemes(line);
  let i = 0;
  for (; i < graphemes.length && used < col; i++) {
    const grapheme = graphemes[i] ?? '';
    out += grapheme;
    used += graphemeWidth(grapheme);
  }
  return `${out}|${graphemes.slice(i).join('')}`;
}
