import type { ConfirmRequest } from '@pi/permissions';
import type { TuiComponent, TuiTheme } from '@pi/plugin-api';
import { wrapText } from '@pi/terminal';
import { printable } from './printable';

/** Rows of the call's summary shown at most; a longer one says how much is not shown. */
export const MAX_SUMMARY_ROWS = 12;
/** Rows of an edit's diff shown at most. */
export const MAX_DIFF_ROWS = 16;

/** The dialog's title: the tool and the first line of what it will do (cut to the width by the host). */
export function confirmTitle(request: ConfirmRequest): string {
  const first = request.summary.split('\n')[0] ?? '';
  return `Allow ${printable(request.tool)}? ${printable(first)}`;
}

/**
 * Shown under the dialog while it is open: the whole call, wrapped (a title alone would hide the end of a long
 * command), its details, what "allow for this session" covers, and when an unanswered request is denied.
 */
export function confirmView(request: ConfirmRequest, theme: TuiTheme): TuiComponent {
  const covers =
    request.sessionGrant === 'command'
      ? 'this exact command, until the session ends'
      : `every ${printable(request.tool)} call, until the session ends`;
  return {
    render(width) {
      const inner = Math.max(1, width - 2);
      const summary = request.summary
        .split('\n')
        .flatMap((line) => wrapText(printable(line), inner))
        .map((line) => `  ${line}`);
      const shown = summary.slice(0, MAX_SUMMARY_ROWS);
      const hidden = summary.length - shown.length;
      return [
        theme.fg('toolTitle', theme.bold(`The agent asks to run ${printable(request.tool)}:`)),
        ...shown,
        ...(hidden > 0 ? [theme.fg('warning', `  … ${hidden} more lines not shown`)] : []),
        ...request.details.flatMap((line) =>
          wrapText(printable(line), inner).map((row) => theme.fg('muted', `  ${row}`)),
        ),
        ...diffRows(request.diff, inner, theme),
        ...wrapText(`“Allow for this session” covers ${covers}.`, width).map((row) => theme.fg('dim', row)),
        ...wrapText(`Esc denies; unanswered, this is denied after ${duration(request.timeoutMs)}.`, width).map((row) =>
          theme.fg('dim', row),
        ),
      ];
    },
  };
}

/** An edit's `-`/`+` lines, coloured, cut to MAX_DIFF_ROWS with a count of the rest. */
function diffRows(diff: string | undefined, width: number, theme: TuiTheme): string[] {
  if (diff === undefined || diff === '') return [];
  const rows = diff.split('\n').flatMap((line) => {
    const color = line.startsWith('-') ? 'error' : line.startsWith('+') ? 'success' : 'muted';
    return wrapText(printable(line), width).map((row) => theme.fg(color, `  ${row}`));
  });
  const hidden = rows.length - MAX_DIFF_ROWS;
  return hidden > 0
    ? [...rows.slice(0, MAX_DIFF_ROWS), theme.fg('warning', `  … ${hidden} more lines of the change not shown`)]
    : rows;
}

function duration(ms: number): string {
  if (ms >= 60_000) return `${Math.round(ms / 60_000)} min`;
  return `${Math.max(1, Math.round(ms / 1000))} s`;
}
