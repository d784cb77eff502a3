import type { RenderedEditor } from '@pi/editor';
import { truncate, type Styler } from '@pi/terminal';

export interface StartupFrameInput {
  readonly width: number;
  readonly height: number;
  /** The styler of the TUI's theme (what `tuiTheme` paints with). */
  readonly theme: Styler;
  /** What pi waits for now, e.g. "Starting the coordinator". */
  readonly phase: string;
  /** Whole seconds since pi started. */
  readonly seconds: number;
  /** Prompts the user sent before the session was attached, oldest first. */
  readonly queued: readonly string[];
  readonly notice: string | undefined;
  readonly editor: RenderedEditor;
  /** Where the session will work (the footer's label once attached). */
  readonly label: string;
  readonly hint: string;
}

export interface StartupFrame {
  readonly lines: string[];
  readonly cursor: { readonly row: number; readonly col: number } | null;
}

const MAX_EDITOR_ROWS = 10;

/**
 * The screen while pi starts, laid out as the TUI's own frame will be (an empty transcript, the status above the
 * editor between two rules, the footer), so that the hand-over to the TUI moves nothing the user looks at.
 */
export function startupFrame(input: StartupFrameInput): StartupFrame {
  const { width, height, theme } = input;
  const fit = (line: string) => truncate(line, width);
  const rule = theme.paint('border', '─'.repeat(width));
  const status = [
    theme.paint('accent', fit(`◌ ${input.phase}… ${input.seconds} s`)),
    ...(input.notice === undefined ? [] : [theme.paint('accent', fit(input.notice))]),
  ];
  const queued = input.queued.map((text) => theme.paint('muted', fit(`queued: ${firstLine(text)}`)));
  const editorRows = input.editor.lines.slice(-MAX_EDITOR_ROWS);
  const cursorRow = input.editor.cursor.row - (input.editor.lines.length - editorRows.length);
  const footer = fit(
    `${theme.paint('warning', '◌ starting')}  ${theme.paint('muted', input.label)}  ${theme.paint('dim', input.hint)}`,
  );
  const fixed = status.length + queued.length + 2 + editorRows.length + 1;
  const padding = Array.from({ length: Math.max(0, height - fixed) }, () => '');
  const top = [...padding, ...status, ...queued, rule];
  const lines = [...top, ...editorRows.map(fit), rule, footer].slice(0, height);
  const row = top.length + Math.max(0, cursorRow);
  return { lines, cursor: row < height ? { row, col: Math.min(width - 1, input.editor.cursor.col) } : null };
}

/** A queued prompt in one line: its first line, with a mark when more follow. */
function firstLine(text: string): string {
  const lines = text.split('\n');
  return lines.length > 1 ? `${lines[0]} (+${lines.length - 1} lines)` : text;
}
