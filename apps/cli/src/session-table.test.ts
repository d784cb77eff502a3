import { describe, expect, it } from 'vitest';
import type { SessionRecordSummary } from '@pi/session-directory';
import { localMinute, newestFirst, sessionTable } from './session-table';

/** An ISO time from local clock fields, so the expected `YYYY-MM-DD HH:MM` holds in any time zone. */
const at = (day: number, hour: number, minute: number) => new Date(2026, 11, day, hour, minute, 30).toISOString();

function record(sessionId: string, title: string, updatedAt: string, cwd = '/src/app'): SessionRecordSummary {
  return { sessionId, title, workspaceId: 'w-1', ownerId: 'local-user', cwd, status: 'idle', updatedAt };
}

describe('the sessions table', () => {
  it('lists newest first, ties by id', () => {
    const sessions = [
      record('s-b', 'b', at(1, 9, 0)),
      record('s-c', 'c', at(2, 9, 0)),
      record('s-a', 'a', at(1, 9, 0)),
    ];
    expect(newestFirst(sessions).map((session) => session.sessionId)).toEqual(['s-c', 's-a', 's-b']);
  });

  it('aligns id, title, status and local time under a header, and adds the directory on request', () => {
    const sessions = [record('s-1', 'fix the build', at(1, 14, 5)), record('s-22', 'x', at(3, 9, 0), '/other')];
    expect(sessionTable(sessions, false)).toEqual([
      'ID    TITLE          STATUS  UPDATED',
      's-1   fix the build  idle    2026-12-01 14:05',
      's-22  x              idle    2026-12-03 09:00',
    ]);
    expect(sessionTable(sessions, true)).toEqual([
      'ID    TITLE          STATUS  UPDATED           DIRECTORY',
      's-1   fix the build  idle    2026-12-01 14:05  /src/app',
      's-22  x              idle    2026-12-03 09:00  /other',
    ]);
  });

  it('clips a long title in the table', () => {
    const [, row] = sessionTable([record('s-1', 'y'.repeat(60), at(1, 0, 0))], false);
    expect(row).toContain(`${'y'.repeat(39)}…  idle`);
  });

  it('shows a time it cannot read as it is', () => {
    expect(localMinute('yesterday')).toBe('yesterday');
  });
});
