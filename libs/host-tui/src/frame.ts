import type { TuiTheme } from '@pi/plugin-api';
import { wrapText } from '@pi/terminal';
import type { ConnectionState } from '@pi/remote';
import type { CursorPosition } from './terminal-screen';
import type { SlotRegistry } from './slot-registry';
import type { TranscriptView } from './transcript-view';

export interface FrameInput {
  readonly width: number;
  readonly height: number;
  readonly theme: TuiTheme;
  readonly slots: SlotRegistry;
  readonly transcript: TranscriptView;
  readonly editor: { readonly lines: readonly string[]; readonly cursor: CursorPosition };
  readonly dialog: readonly string[] | undefined;
  /** The overlay slot and the views shown as overlays: drawn over the end of the transcript. */
  readonly overlay: readonly string[];
  readonly notices: ReadonlyArray<{ text: string; level: 'info' | 'warning' | 'error' }>;
  readonly connection: ConnectionState;
  readonly label: string;
  readonly hint: string;
  /** Slash commands matching what the editor holds, shown above it while the user types one. */
  readonly completions: readonly string[];
  readonly fit: (line: string, width: number) => string;
}

export interface Frame {
  readonly lines: string[];
  readonly cursor: CursorPosition | null;
}

/** How many rows the editor may take before it scrolls within itself. */
const MAX_EDITOR_ROWS = 10;

/**
 * One screen, top to bottom: header slot, the transcript (filling what is left; the welcome slot while it is
 * empty; overlays drawn over its end), a dialog if one is open,
 * status slot and notices, editor.above, the editor between two rules, editor.below, the footer line and the
 * footer slot. Every line is cut to the width; the transcript gives way first when the terminal is small.
 */
export function composeFrame(input: FrameInput): Frame {
  const { width, height, theme, slots, fit } = input;
  const slot = (name: Parameters<SlotRegistry['render']>[0]) => slots.render(name, width, fit);
  // Built with pushes into the arrays the slots hand out: a frame is painted per streamed delta, and array spreads
  // and copies were a good part of what the TUI allocated while an answer streamed (issue 21).
  const rule = ruleLine(theme, width);
  const header = slot('header');
  const status = slot('status');
  for (const notice of input.notices)
    status.push(theme.fg(notice.level === 'info' ? 'accent' : notice.level, fit(notice.text, width)));
  const stale = staleLines(input.connection, theme, width);
  const editorLines = input.editor.lines;
  const editorStart = Math.max(0, editorLines.length - MAX_EDITOR_ROWS);
  const cursorRow = input.editor.cursor.row - editorStart;
  const below = slot('editor.below');
  below.push(footerLine(input));
  pushAll(below, slot('footer'));
  const above = input.completions.map((line) => fit(line, width));
  pushAll(above, slot('editor.above'));
  const dialogRows = input.dialog === undefined ? 0 : 1 + input.dialog.length;
  const fixed =
    header.length +
    dialogRows +
    status.length +
    stale.length +
    above.length +
    2 +
    (editorLines.length - editorStart) +
    below.length;
  const transcriptHeight = Math.max(0, height - fixed);
  const viewport = input.transcript.viewport(width, transcriptHeight);
  // An empty transcript shows the welcome instead, its end above the editor as the transcript's would be; when it is
  // taller than the room, its start is kept (the host's greeting and the model come first, facets' hints after).
  const shown = transcriptHeight === 0 ? [] : input.transcript.size === 0 ? slot('welcome') : viewport.lines;
  const shownCount = Math.min(shown.length, transcriptHeight);
  const lines = header;
  const regionStart = lines.length;
  for (let row = shownCount; row < transcriptHeight; row++) lines.push('');
  for (let index = 0; index < shownCount; index++) lines.push(fit(shown[index] as string, width));
  if (viewport.below > 0 && shownCount > 0) {
    lines[lines.length - 1] = theme.fg(
      'warning',
      fit(`↓ ${viewport.below} more lines — End follows the output`, width),
    );
  }
  // An overlay covers the transcript's last rows (its own first rows kept when it is taller than the room).
  const covering = Math.min(input.overlay.length, transcriptHeight);
  for (let index = 0; index < covering; index++)
    lines[regionStart + transcriptHeight - covering + index] = fit(input.overlay[index] as string, width);
  if (input.dialog !== undefined) {
    lines.push(rule);
    for (const line of input.dialog) lines.push(fit(line, width));
  }
  pushAll(lines, status);
  pushAll(lines, stale);
  pushAll(lines, above);
  lines.push(rule);
  const top = lines.length;
  for (let index = editorStart; index < editorLines.length; index++)
    lines.push(fit(editorLines[index] as string, width));
  lines.push(rule);
  pushAll(lines, below);
  if (lines.length > height) lines.length = height;
  const row = top + Math.max(0, cursorRow);
  return { lines, cursor: row < height ? { row, col: Math.min(width - 1, input.editor.cursor.col) } : null };
}

function pushAll(to: string[], from: readonly string[]): void {
  for (const line of from) to.push(line);
}

/** The rule across the screen, drawn twice a frame: made once per theme and width. */
let lastRule: { theme: TuiTheme; width: number; line: string } | undefined;
function ruleLine(theme: TuiTheme, width: number): string {
  if (lastRule?.theme !== theme || lastRule.width !== width)
    lastRule = { theme, width, line: theme.fg('border', '─'.repeat(width)) };
  return lastRule.line;
}

function staleLines(connection: ConnectionState, theme: TuiTheme, width: number): string[] {
  if (connection.status === 'connected') return [];
  const why = connection.status === 'disconnected' ? ` (${connection.reason.message})` : '';
  const text = `Disconnected from the session${why} — showing the last state; reconnecting…`;
  return wrapText(text, width).map((line) => theme.fg('warning', line));
}

function footerLine(input: FrameInput): string {
  const { connection, theme, width, fit } = input;
  const state =
    connection.status === 'connected'
      ? theme.fg('success', '● connected')
      : connection.status === 'connecting'
        ? theme.fg('warning', `◌ connecting (attempt ${connection.attempt})`)
        : theme.fg('error', `○ disconnected${connection.retrying ? ', retrying' : ''}`);
  return fit(`${state}  ${theme.fg('muted', input.label)}  ${theme.fg('dim', input.hint)}`, width);
}
