import { SgrState } from './sgr-state';
import { wrapTextFrom } from './wrap';

/** How a row is drawn: its text as wrapped and its index among the text's rows (a first-line prefix, an indent). */
export type RowDecoration = (row: string, index: number) => string;

interface CompletedLines {
  readonly width: number;
  /** The text up to and including its last newline, as last wrapped. */
  readonly source: string;
  /** The decorated rows of `source`'s lines (without the empty line after its last newline). */
  readonly rows: string[];
  /** The styles in force at the end of `source`. */
  readonly state: SgrState;
}

/**
 * `wrapText` for a text that grows at its end, as an answer does while it streams: the lines before the text's
 * last newline are wrapped (and decorated) once and kept for the width; each call wraps only what follows it, so a
 * frame of a long answer costs its last line, not the whole answer. Any other text (a new answer, an edit) or
 * another width starts over. The rows are always those `wrapText` gives the whole text, decorated.
 */
export class GrowingTextWrap {
  readonly #decorate: RowDecoration;
  #completed: CompletedLines | undefined;

  constructor(decorate: RowDecoration = (row) => row) {
    this.#decorate = decorate;
  }

  /** The rows of `text` at `width`, decorated; a new array each call (the caller may keep or change it). */
  wrap(text: string, width: number): string[] {
    const completed = this.#completedLines(text, width);
    const tail = wrapTextFrom(text.slice(completed.source.length), width, completed.state.clone());
    const rows = completed.rows.slice();
    for (const row of tail) rows.push(this.#decorate(row, rows.length));
    return rows;
  }

  /** Forgets the wrapped lines (the decoration's look changed). */
  invalidate(): void {
    this.#completed = undefined;
  }

  #completedLines(text: string, width: number): CompletedLines {
    const cut = text.lastIndexOf('\n') + 1;
    let completed = this.#completed;
    if (completed === undefined || completed.width !== width || !text.startsWith(completed.source)) {
      completed = { width, source: '', rows: [], state: new SgrState() };
    }
    if (cut > completed.source.length) {
      const added = wrapTextFrom(text.slice(completed.source.length, cut), width, completed.state);
      added.pop(); // the empty line after the newline: the tail's first row
      for (const row of added) completed.rows.push(this.#decorate(row, completed.rows.length));
      completed = { ...completed, source: text.slice(0, cut) };
    }
    this.#completed = completed;
    return completed;
  }
}
