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
  const rule = theme.fg('border', '─'.repeat(width));
  const header = slot('header');
  const status = [
    ...slot('status'),
    ...input.notices.map((notice) =>
      theme.fg(notice.level === 'info' ? 'accent' : notice.level, fit(notice.text, width)),
    ),
  ];
  const stale = staleLines(input.connection, theme, width);
  const editorRows = input.editor.lines.slice(-MAX_EDITOR_ROWS);
  const cursorRow = input.editor.cursor.row - (input.editor.lines.length - editorRows.length);
  const below = [...slot('editor.below'), footerLine(input), ...slot('footer')];
  const above = [...input.completions.map((line) => fit(line, width)), ...slot('editor.above')];
  const dialog = input.dialog === undefined ? [] : [rule, ...input.dialog.map((line) => fit(line, width))];
  const fixed =
    header.length + dialog.length + status.length + stale.length + above.length + 2 + editorRows.length + below.length;
  const transcriptHeight = Math.max(0, height - fixed);
  const viewport = input.transcript.viewport(width, transcriptHeight);
  // An empty transcript shows the welcome instead, its end above the editor as the transcript's would be; when it is
  // taller than the room, its start is kept (the host's greeting and the model come first, facets' hints after).
  const shown = input.transcript.size === 0 ? slot('welcome').slice(0, transcriptHeight) : viewport.lines;
  const transcriptLines = transcriptHeight === 0 ? [] : shown.map((line) => fit(line, width));
  if (viewport.below > 0 && transcriptLines.length > 0) {
    transcriptLines[transcriptLines.length - 1] = theme.fg(
      'warning',
      fit(`↓ ${viewport.below} more lines — End follows the output`, width),
    );
  }
  const padding = Array.from({ length: Math.max(0, transcriptHeight - transcriptLines.length) }, () => '');
  const region = [...padding, ...transcriptLines];
  // An overlay covers the transcript's last rows (its own first rows kept when it is taller than the room).
  const covering = input.overlay.slice(0, transcriptHeight).map((line) => fit(line, width));
  region.splice(region.length - covering.length, covering.length, ...covering);
  const top = [...header, ...region, ...dialog, ...status, ...stale, ...above, rule];
  const lines = [...top, ...editorRows.map((line) => fit(line, width)), rule, ...below].slice(0, height);
  const row = top.length + Math.max(0, cursorRow);
  return { lines, cursor: row < height ? { row, col: Math.min(width - 1, input.editor.cursor.col) } : null };
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
