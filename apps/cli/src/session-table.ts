import type { SessionRecordSummary } from '@pi/session-directory';

/** The longest title a table shows whole; `pi sessions list --json` has every title as it is. */
const TITLE_COLUMN_MAX = 40;

/** Newest first (by `updatedAt`, an ISO time), then by id, so equal times keep one order. */
export function newestFirst(sessions: readonly SessionRecordSummary[]): SessionRecordSummary[] {
  return [...sessions].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || a.sessionId.localeCompare(b.sessionId));
}

/** The sessions as an aligned table with a header row; with `directories`, each session's directory too. */
export function sessionTable(sessions: readonly SessionRecordSummary[], directories: boolean): string[] {
  const header = ['ID', 'TITLE', 'STATUS', 'UPDATED', ...(directories ? ['DIRECTORY'] : [])];
  const rows = sessions.map((session) => [
    session.sessionId,
    clip(session.title, TITLE_COLUMN_MAX),
    session.status,
    localMinute(session.updatedAt),
    ...(directories ? [session.cwd] : []),
  ]);
  const widths = header.map((label, column) => Math.max(label.length, ...rows.map((row) => row[column]?.length ?? 0)));
  return [header, ...rows].map((row) =>
    row
      .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}

/** `YYYY-MM-DD HH:MM` in local time; a value that is not a time is shown as it is. */
export function localMinute(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const two = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}`;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
