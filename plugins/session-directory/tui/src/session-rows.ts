import { MAX_SESSION_TITLE, type SessionPickerEntry } from '@pi/session-directory';

/** Marks the current session's row; other rows are indented by as much, so titles line up. */
export const CURRENT_MARK = '● ';
const NOT_CURRENT = '  ';
const MAX_TITLE = 48;

/**
 * Text from the directory as the terminal may show it on one line: titles are the user's, but they pass through
 * other processes, so control characters (escape sequences, line breaks) become spaces.
 */
export function printable(text: string): string {
  // eslint-disable-next-line no-control-regex -- exactly the control characters are replaced
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
}

/** A title for a row or a notice: printable, and cut to a length (`max`) that leaves room for status and time. */
export function shortTitle(entry: SessionPickerEntry, max = MAX_TITLE): string {
  const title = printable(entry.title).trim() || entry.sessionId;
  return title.length <= max ? title : `${title.slice(0, max - 1)}…`;
}

/** Why a typed title is refused, in the user's terms (`/name` and `/new` alike). */
export function titleProblem(typed: string): string {
  const title = typed.trim();
  if (title.length > MAX_SESSION_TITLE) {
    return `A title has at most ${MAX_SESSION_TITLE} characters (that was ${title.length})`;
  }
  if (/\p{Cc}/u.test(title)) return 'A title is one line of text: no tabs, line breaks or other control characters';
  return 'A title needs at least one character';
}

/** How long ago, the way people say it: `just now`, `5m ago`, `3h ago`, `2d ago`, then the date. */
export function relativeTime(iso: string, now: number): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return '';
  const seconds = Math.max(0, (now - then) / 1000);
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h ago`;
  if (seconds < 7 * 86_400) return `${Math.floor(seconds / 86_400)}d ago`;
  return new Date(then).toISOString().slice(0, 10);
}

/** Newest first; a session with an unreadable time goes last. */
export function newestFirst(entries: readonly SessionPickerEntry[]): SessionPickerEntry[] {
  const time = (entry: SessionPickerEntry) => {
    const parsed = Date.parse(entry.updatedAt);
    return Number.isNaN(parsed) ? Number.NEGATIVE_INFINITY : parsed;
  };
  return [...entries].sort((a, b) => time(b) - time(a));
}

export interface SessionRow {
  readonly text: string;
  readonly entry: SessionPickerEntry;
}

/**
 * One select row per session, newest first: `● title · status · 5m ago` for the current one, indented otherwise.
 * Rows that would read the same (two sessions of one title) end with the session id, so each row names one session.
 */
export function sessionRows(entries: readonly SessionPickerEntry[], now: number): SessionRow[] {
  const base = newestFirst(entries).map((entry) => {
    const parts = [shortTitle(entry), entry.status, relativeTime(entry.updatedAt, now)].filter((part) => part !== '');
    return { text: `${entry.isCurrent ? CURRENT_MARK : NOT_CURRENT}${parts.join(' · ')}`, entry };
  });
  const counts = new Map<string, number>();
  for (const row of base) counts.set(row.text, (counts.get(row.text) ?? 0) + 1);
  return base.map((row) =>
    (counts.get(row.text) ?? 0) > 1 ? { ...row, text: `${row.text} · ${row.entry.sessionId}` } : row,
  );
}
