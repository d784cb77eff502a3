import { truncate, visibleWidth, type InputEvent, type Keymap } from '@pi/terminal';
import type { EditResult, EditorSnapshot } from './edit-result';
import { applyEditorAction, EDITOR_ACTIONS, type ActionTarget } from './editor-actions';
import { layoutText, locate, offsetAtColumn, type Layout } from './layout';
import { PasteStore, sanitize } from './paste-store';
import { PromptHistory } from './prompt-history';
import { boundaries, isMarker, segmentDisplay } from './segments';
import { UndoStack } from './undo-stack';

/**
 * The multi-line prompt editor: a pure model (text, cursor, pastes, history, undo) and its renderer. It reads
 * keys only through the keymap, never by name, and renders to lines plus the cursor position, so the host can
 * place the real terminal cursor (IMEs draw their composition there).
 */

export interface EditorOptions {
  /** A paste with more lines than this becomes a marker. Default 10. */
  readonly pasteMaxLines?: number;
  /** A paste with more characters than this becomes a marker. Default 1,000. */
  readonly pasteMaxChars?: number;
  readonly historyLimit?: number;
  readonly undoLimit?: number;
  /** Styles a paste marker's label, e.g. with the theme's accent. Default: unstyled. */
  readonly markerStyle?: (label: string) => string;
}

export interface RenderedEditor {
  readonly lines: readonly string[];
  readonly cursor: { readonly row: number; readonly col: number };
}

export class Editor implements ActionTarget {
  private buffer = '';
  private cursor = 0;
  private goalCol: number | undefined;
  private lastWidth = Number.MAX_SAFE_INTEGER;
  private cached: { text: string; width: number; layout: Layout } | undefined;
  private readonly pastes = new PasteStore();
  private readonly history: PromptHistory;
  private readonly undoStack: UndoStack<EditorSnapshot>;

  constructor(private readonly options: EditorOptions = {}) {
    this.history = new PromptHistory(options.historyLimit ?? 100);
    this.undoStack = new UndoStack(options.undoLimit ?? 200);
  }

  /** Handles one input event; what happened tells the host whether to re-render or to send a prompt. */
  handle(event: InputEvent, keymap: Keymap): EditResult {
    if (event.type === 'paste') return this.paste(event.text) ? { kind: 'changed' } : { kind: 'ignored' };
    if (event.type !== 'key') return { kind: 'ignored' };
    for (const action of EDITOR_ACTIONS) {
      if (!keymap.matches(event, action)) continue;
      const verticalKey = keymap.matches(event, 'cursorUp') || keymap.matches(event, 'cursorDown');
      const result = applyEditorAction(this, action, verticalKey);
      if (result !== undefined) return result;
    }
    if (event.text === undefined || event.ctrl || event.alt) return { kind: 'ignored' };
    this.insert(event.text, 'type');
    return { kind: 'changed' };
  }

  /** Lines of at most `width` columns and where the cursor shows among them. */
  render(width: number): RenderedEditor {
    const layout = this.layout(width);
    const style = this.options.markerStyle ?? ((label: string) => label);
    const lines = layout.rows.map((row) => {
      const line = row.segments.map((s) => (isMarker(s) ? style(this.pastes.label(s)) : segmentDisplay(s))).join('');
      return visibleWidth(line) > layout.width ? truncate(line, layout.width, '') : line;
    });
    const { row, col } = locate(layout, this.cursor);
    return { lines, cursor: { row, col: Math.min(col, layout.width - 1) } };
  }

  /** The prompt as it will be sent: paste markers expanded. */
  text(): string {
    return this.pastes.expand(this.buffer);
  }

  /** Replaces the text (after an external editor); pastes that come back verbatim stay markers. Undoable. */
  setText(text: string): void {
    this.replace(sanitizeKeepingPastes(text, this.pastes), undefined);
  }

  isEmpty(): boolean {
    return this.buffer === '';
  }

  /** Empties the editor (the host's Ctrl+C). Undoable; the history position returns to the draft. */
  clear(): void {
    this.replace('', 0);
    this.history.reset();
  }

  /** Inserts text at the cursor, as typed (one undo run with the text typed next to it) or as one step. */
  insert(text: string, kind: 'type' | 'step' = 'step'): void {
    const clean = sanitize(text);
    if (clean === '') return;
    // Typing coalesces into one undo step per word: a space typed after a word starts the next step.
    if (kind === 'type' && /^\s/u.test(clean) && /\S$/u.test(this.buffer.slice(0, this.cursor))) {
      this.undoStack.breakRun();
    }
    this.edit(kind === 'type' ? 'type' : undefined, this.cursor, this.cursor, clean);
  }

  /** A paste: inline when small, else one atomic marker. Returns false when there was nothing to insert. */
  paste(text: string): boolean {
    const lines = text.split('\n').length;
    const large = lines > (this.options.pasteMaxLines ?? 10) || text.length > (this.options.pasteMaxChars ?? 1000);
    const marker = large ? this.pastes.add(text) : undefined;
    if (marker === undefined) {
      const clean = sanitize(text);
      if (clean === '') return false;
      this.edit(undefined, this.cursor, this.cursor, clean);
    } else {
      this.edit(undefined, this.cursor, this.cursor, marker);
    }
    this.undoStack.breakRun();
    return true;
  }

  /** Submitted prompts, oldest first, paste markers expanded. */
  historyEntries(): string[] {
    return this.history.list().map((entry) => this.pastes.expand(entry));
  }

  /** Loads prompts from an earlier session, oldest first. */
  loadHistory(entries: readonly string[]): void {
    this.history.load(entries.map((e) => sanitize(e)));
  }

  // ---- the operations editor actions are made of (ActionTarget) ----

  /** The text with paste markers (what the cursor moves over) and the cursor offset in it. */
  snapshot(): EditorSnapshot {
    return { text: this.buffer, cursor: this.cursor };
  }

  /** Moves the cursor; keeps the goal column for vertical moves only. */
  moveTo(offset: number, vertical = false): EditResult {
    if (!vertical) this.goalCol = undefined;
    this.undoStack.breakRun();
    const clamped = Math.max(0, Math.min(this.buffer.length, offset));
    if (clamped === this.cursor) return { kind: 'ignored' };
    this.cursor = clamped;
    return { kind: 'moved' };
  }

  /** The offset one grapheme (or paste marker) before or after the cursor. */
  neighbour(direction: -1 | 1): number {
    const stops = boundaries(this.buffer);
    const index = stops.indexOf(this.cursor);
    return stops[Math.max(0, Math.min(stops.length - 1, index + direction))] ?? this.cursor;
  }

  /** The cursor's row in the last rendered layout, and the row count. */
  cursorRow(): { row: number; rows: number } {
    const layout = this.layout(this.lastWidth);
    return { row: locate(layout, this.cursor).row, rows: layout.rows.length };
  }

  /** Moves up (-1) or down (1) one visual row, keeping the goal column. */
  moveVertically(direction: -1 | 1): EditResult {
    const layout = this.layout(this.lastWidth);
    const here = locate(layout, this.cursor);
    const target = layout.rows[here.row + direction];
    if (target === undefined) return { kind: 'ignored' };
    this.goalCol ??= here.col;
    return this.moveTo(offsetAtColumn(target, this.goalCol), true);
  }

  /** Replaces [from, to) with `insert`, recording an undo step (coalesced with the previous one of `kind`). */
  edit(kind: string | undefined, from: number, to: number, insert: string): EditResult {
    if (from === to && insert === '') return { kind: 'ignored' };
    this.undoStack.record(this.snapshot(), kind);
    this.buffer = this.buffer.slice(0, from) + insert + this.buffer.slice(to);
    this.cursor = from + insert.length;
    this.goalCol = undefined;
    return { kind: 'changed' };
  }

  walkHistory(direction: -1 | 1): EditResult {
    const entry = direction < 0 ? this.history.previous(this.buffer) : this.history.next();
    if (entry === undefined) return { kind: 'ignored' };
    this.undoStack.breakRun();
    this.undoStack.record(this.snapshot());
    this.buffer = entry;
    this.cursor = entry.length;
    this.goalCol = undefined;
    return { kind: 'changed' };
  }

  undo(): EditResult {
    return this.restore(this.undoStack.undo(this.snapshot()));
  }

  redo(): EditResult {
    return this.restore(this.undoStack.redo(this.snapshot()));
  }

  /** Takes the prompt out: records it in the history and empties the editor. */
  submit(action: 'submit' | 'followUp'): EditResult {
    const text = this.text();
    if (text.trim() === '') return { kind: 'ignored' };
    this.history.add(this.buffer);
    this.buffer = '';
    this.cursor = 0;
    this.goalCol = undefined;
    this.undoStack.clear();
    return { kind: 'submit', text, action };
  }

  private restore(state: EditorSnapshot | undefined): EditResult {
    if (state === undefined) return { kind: 'ignored' };
    this.buffer = state.text;
    this.cursor = state.cursor;
    this.goalCol = undefined;
    return { kind: 'changed' };
  }

  private replace(text: string, cursor: number | undefined): void {
    if (text === this.buffer) return;
    this.undoStack.breakRun();
    this.edit(undefined, 0, this.buffer.length, text);
    if (cursor !== undefined) this.cursor = cursor;
  }

  private layout(width: number): Layout {
    this.lastWidth = width;
    const cached = this.cached;
    if (cached !== undefined && cached.text === this.buffer && cached.width === width) return cached.layout;
    const layout = layoutText(this.buffer, width, (m) => visibleWidth(this.pastes.label(m)));
    this.cached = { text: this.buffer, width, layout };
    return layout;
  }
}

/** Sanitizes text coming back from outside while keeping this editor's own paste contents byte for byte. */
function sanitizeKeepingPastes(text: string, pastes: PasteStore): string {
  const collapsed = pastes.collapse(text.replace(/\r\n?/g, '\n'));
  return collapsed
    .split(/([\u{f0000}-\u{ffffd}])/u)
    .map((part) => (pastes.has(part) ? part : sanitize(part)))
    .join('');
}
