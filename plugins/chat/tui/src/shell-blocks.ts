import type { ShellProgress, ShellTranscriptEntry } from '@pi/chat';
import type { TuiComponent, TuiTheme } from '@pi/plugin-api';
import { wrapText } from '@pi/terminal';

/** How many of the last output lines show while output is collapsed (Ctrl+O shows all that was kept). */
const COLLAPSED_SHELL_LINES = 6;

/** The `$ command` line: `!` commands in the accent colour, `!!` ones muted and marked as kept from the model. */
function commandLines(command: string, includeInContext: boolean, theme: TuiTheme, width: number): string[] {
  const note = includeInContext ? '' : theme.fg('dim', '  (not sent to the model)');
  const body = `${theme.fg(includeInContext ? 'accent' : 'muted', '$')} ${command}${note}`;
  return ['', ...wrapText(body, Math.max(1, width - 2)).map((line) => `  ${line}`)];
}

function outputLines(output: string, width: number): string[] {
  return output === '' ? [] : wrapText(output, Math.max(1, width - 4));
}

/** How the command ended, in one line: nothing for a clean exit without a cut. */
function endLine(entry: ShellTranscriptEntry, theme: TuiTheme): string | null {
  const cut = entry.truncated ? ' (only the end of its output was kept)' : '';
  if (entry.timedOut) return theme.fg('warning', `    ⏱ killed at its timeout${cut}`);
  if (entry.aborted) return theme.fg('warning', `    ⏹ stopped${cut}`);
  if (entry.exitCode === null) return theme.fg('error', `    ✗ killed by ${entry.signal ?? 'a signal'}${cut}`);
  if (entry.exitCode !== 0) return theme.fg('error', `    ✗ exit code ${entry.exitCode}${cut}`);
  return cut === '' ? null : theme.fg('dim', `   ${cut}`);
}

/**
 * A finished `!`/`!!` command: the command, the last lines of its output (all of what was kept while tool output is
 * expanded), and how it ended.
 */
export function shellEntryBlock(
  entry: ShellTranscriptEntry,
  context: { readonly theme: TuiTheme; readonly expanded: boolean },
): TuiComponent {
  const { theme } = context;
  return {
    render(width) {
      const body = outputLines(entry.output, width);
      // Read at each render: Ctrl+O re-renders the blocks on screen.
      const shown =
        context.expanded || body.length <= COLLAPSED_SHELL_LINES ? body : body.slice(-COLLAPSED_SHELL_LINES);
      const hidden = body.length - shown.length;
      const end = endLine(entry, theme);
      return [
        ...commandLines(entry.command, entry.includeInContext, theme, width),
        ...(hidden > 0 ? [theme.fg('dim', `    … ${hidden} earlier lines (ctrl+o)`)] : []),
        ...shown.map((line) => `    ${theme.fg('muted', line)}`),
        ...(end === null ? [] : [end]),
      ];
    },
  };
}

/** The command running now: its last lines so far, and how to stop it. */
export function shellLiveBlock(progress: ShellProgress, theme: TuiTheme, stopKey: string): TuiComponent {
  return {
    render(width) {
      const body = outputLines(progress.output, width).slice(-COLLAPSED_SHELL_LINES);
      const stop = stopKey === '' ? '' : ` · ${stopKey} to stop`;
      return [
        ...commandLines(progress.command, progress.includeInContext, theme, width),
        ...body.map((line) => `    ${theme.fg('muted', line)}`),
        theme.fg('dim', `    running…${stop}`),
      ];
    },
  };
}
