import type { ToolRenderer, TuiTheme } from '@pi/plugin-api';
import { bashDetailsSchema, bodyWithoutNotice, type BashDetails } from '@pi/tools-core';
import { textArgument } from './call-arguments';
import { displayLines } from './display-text';
import { callTitle, failedBlock, toolBlock } from './tool-block';

/** Lines of a command's output shown while tool output is collapsed: the last ones. */
export const BASH_COLLAPSED_LINES = 5;

/** `bash`: `$ command`; then how it ended and the last lines of its output (all of them with Ctrl+O). */
export const bashRenderer: ToolRenderer = {
  renderCall(args, theme) {
    const [first = '', ...more] = textArgument(args, 'command').split(/\s*[\r\n]\s*/);
    return callTitle(theme, 'bash', `$ ${first}`, more.length === 0 ? '' : `(+${more.length} lines)`);
  },
  renderResult(result, theme, { expanded }) {
    const details = bashDetailsSchema.safeParse(result.details);
    if (!details.success) return failedBlock(displayLines(result.text), theme);
    const body = bodyWithoutNotice(result.text, details.data.notice);
    return toolBlock(
      {
        header: status(details.data, theme),
        body: body === '(no output)' ? [] : displayLines(body),
        collapse: { keep: 'tail', lines: BASH_COLLAPSED_LINES },
        expanded,
        footer: details.data.truncated ? details.data.notice : null,
      },
      theme,
    );
  },
};

function status(details: BashDetails, theme: TuiTheme): string {
  if (details.timedOut) return theme.fg('error', '✗ timed out, killed');
  if (details.aborted) return theme.fg('warning', '⏹ aborted, killed');
  if (details.exitCode === null) return theme.fg('error', `✗ killed by ${details.signal ?? 'a signal'}`);
  if (details.exitCode !== 0) return theme.fg('error', `✗ exit ${details.exitCode}`);
  return theme.fg('success', '✓ exit 0');
}
