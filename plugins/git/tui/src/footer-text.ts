import type { GitStatus } from '@pi/git';
import type { TuiTheme } from '@pi/plugin-api';
import { truncate } from '@pi/terminal';

/** Marks a working tree with staged, unstaged, untracked or conflicted files. */
export const DIRTY_MARK = '*';
export const BRANCH_SIGN = '⎇';

/**
 * The footer line for a status, styled with the theme's colours: `⎇ main*  ↑1 ↓2`, a detached HEAD by its
 * commit, conflicts and git's complaint when there are any. Nothing before the first check or outside a
 * repository; `git not found` when the session has no git. Never wider than `width`.
 */
export function gitFooterLine(status: GitStatus, theme: TuiTheme, width: number): string | undefined {
  if (!status.checked) return undefined;
  if (!status.gitAvailable) return truncate(theme.fg('dim', 'git not found'), width);
  if (!status.inRepository) return undefined;
  const head =
    status.detached || status.branch === null
      ? `${status.commit ?? 'HEAD'}${status.detached ? ' (detached)' : ''}`
      : status.branch;
  const parts = [
    theme.fg('accent', `${BRANCH_SIGN} ${printable(head)}`) + (status.clean ? '' : theme.fg('warning', DIRTY_MARK)),
  ];
  const divergence = [status.ahead > 0 ? `↑${status.ahead}` : '', status.behind > 0 ? `↓${status.behind}` : '']
    .filter((part) => part !== '')
    .join(' ');
  if (divergence !== '') parts.push(theme.fg('muted', divergence));
  const { conflicted } = status.changes;
  if (conflicted > 0) parts.push(theme.fg('error', `${conflicted} conflicted`));
  if (status.error !== null) parts.push(theme.fg('error', `git: ${printable(status.error)}`));
  return truncate(parts.join('  '), width);
}

/** Names and messages come from the session: control characters (escape sequences, line breaks) become spaces. */
function printable(text: string): string {
  // eslint-disable-next-line no-control-regex -- exactly the control characters are replaced
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
}
