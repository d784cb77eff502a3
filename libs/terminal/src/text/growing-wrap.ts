import { escapeLength } from './ansi-tokens';
import { SgrState } from './sgr-state';
import { NO_RESUME, wrapLineFrom, wrapTextFrom } from './wrap';

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

/** The rows of the line being streamed (the text after the last newline) that no longer change as it grows. */
interface SettledRows {
  /** The completed lines this line follows (the same object while no newline came and the width is the same). */
  readonly after: CompletedLines;
  /** The line as last wrapped. */
  readonly line: string;
  /** Its decorated rows before `resumeAt`. */
  readonly rows: readonly string[];
  /** Where the row after them starts in the line: a wrap of the rest of the line from here gives the rest of its rows. */
  readonly resumeAt: number;
  /** The styles in force at `resumeAt`. */
  readonly state: SgrState;
}

/**
 * `wrapText` for a text that grows at its end, as an answer does while it streams: the lines before the text's
 * last newline are wrapped (and decorated) once and kept for the width, and so are the rows of the last line that
 * can no longer change, so a frame of a long answer costs the last row or two, not the whole answer nor a whole
 * paragraph. Any other text (a new answer, an edit) or another width starts over. The rows are always those
 * `wrapText` gives the whole text, decorated.
 */
export class GrowingTextWrap {
  readonly #decorate: RowDecoration;
  #completed: CompletedLines | undefined;
  #settled: SettledRows | undefined;

  constructor(decorate: RowDecoration = (row) => row) {
    this.#decorate = decorate;
  }

  /** The rows of `text` at `width`, decorated; a new array each call (the caller may keep or change it). */
  wrap(text: string, width: number): string[] {
    const completed = this.#completedLines(text, width);
    const rows = completed.rows.slice();
    for (const row of this.#lastLineRows(text.slice(completed.source.length), completed, width)) rows.push(row);
    return rows;
  }

  /** Forgets the wrapped lines (the decoration's look changed). */
  invalidate(): void {
    this.#completed = undefined;
    this.#settled = undefined;
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

  /**
   * The decorated rows of the line after the last newline. Greedy wrapping never changes a row once the next one
   * has started, except where the line's last grapheme decides the break (it may yet join what comes next: a mark,
   * a keycap): so the rows before the second-to-last row that can be resumed from are kept, with where that row
   * starts and the styles in force there, and the next call wraps only from it. Tabs and carriage returns are
   * expanded or joined against the whole line, so a line holding one is wrapped whole.
   */
  #lastLineRows(line: string, completed: CompletedLines, width: number): string[] {
    const first = completed.rows.length;
    if (line.includes('\t') || line.includes('\r')) {
      this.#settled = undefined;
      return wrapTextFrom(line, width, completed.state.clone()).map((row, index) => this.#decorate(row, first + index));
    }
    const kept = this.#settled;
    const resumes = kept !== undefined && kept.after === completed && line.startsWith(kept.line);
    const from = resumes ? kept.resumeAt : 0;
    const fromState = resumes ? kept.state : completed.state;
    const rows: string[] = resumes ? kept.rows.slice() : [];
    const starts: number[] = [];
    const fresh = wrapLineFrom(line.slice(from), width, fromState.clone(), starts);
    // The last row that may change is the second-to-last one; keep the rows before the last resumable start before it.
    let keep = fresh.length - 2;
    while (keep > 0 && starts[keep] === NO_RESUME) keep -= 1;
    const settledRows = rows.slice();
    for (let index = 0; index < fresh.length; index++) {
      const row = this.#decorate(fresh[index] as string, first + rows.length);
      rows.push(row);
      if (index < keep) settledRows.push(row);
    }
    if (keep > 0) {
      const resumeAt = from + (starts[keep] as number);
      this.#settled = {
        after: completed,
        line,
        rows: settledRows,
        resumeAt,
        state: stateAt(line, from, resumeAt, fromState),
      };
    } else if (!resumes) this.#settled = { after: completed, line, rows: [], resumeAt: 0, state: completed.state };
    else this.#settled = { ...kept, line };
    return rows;
  }
}

/** The styles in force at `to` in `line`, given those in force at `from`. */
function stateAt(line: string, from: number, to: number, atFrom: SgrState): SgrState {
  let escape = line.indexOf('\x1b', from);
  if (escape === -1 || escape >= to) return atFrom;
  const state = atFrom.clone();
  while (escape !== -1 && escape < to) {
    const length = escapeLength(line, escape);
    state.apply(line.slice(escape, escape + length));
    escape = line.indexOf('\x1b', escape + length);
  }
  return state;
}
