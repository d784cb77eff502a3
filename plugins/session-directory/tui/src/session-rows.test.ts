import { describe, expect, it } from 'vitest';
import type { SessionPickerEntry } from '@pi/session-directory';
import { newestFirst, relativeTime, sessionRows, shortTitle } from './session-rows';

const NOW = Date.parse('2026-12-01T12:00:00Z');
const entry = (sessionId: string, title: string, updatedAt: string, isCurrent = false): SessionPickerEntry => ({
  sessionId,
  title,
  status: 'idle',
  updatedAt,
  isCurrent,
});

describe('session rows', () => {
  it('say how long ago as people do, then the date', () => {
    expect(relativeTime('2026-12-01T11:59:30Z', NOW)).toBe('just now');
    expect(relativeTime('2026-12-01T12:00:30Z', NOW)).toBe('just now'); // a clock a little ahead
    expect(relativeTime('2026-12-01T11:55:00Z', NOW)).toBe('5m ago');
    expect(relativeTime('2026-12-01T09:00:00Z', NOW)).toBe('3h ago');
    expect(relativeTime('2026-11-29T12:00:00Z', NOW)).toBe('2d ago');
    expect(relativeTime('2026-10-03T08:00:00Z', NOW)).toBe('2026-10-03');
    expect(relativeTime('not a time', NOW)).toBe('');
  });

  it('put the newest first and an unreadable time last', () => {
    const sorted = newestFirst([
      entry('a', 'a', '2026-12-01T10:00:00Z'),
      entry('b', 'b', 'garbage'),
      entry('c', 'c', '2026-12-01T11:00:00Z'),
    ]);
    expect(sorted.map((session) => session.sessionId)).toEqual(['c', 'a', 'b']);
  });

  it('mark the current session and line the others up with it', () => {
    const rows = sessionRows([entry('a', 'here', '2026-12-01T11:00:00Z', true), entry('b', 'there', 'garbage')], NOW);
    expect(rows.map((row) => row.text)).toEqual(['● here · idle · 1h ago', '  there · idle']);
  });

  it('name the session id only where two rows would read the same', () => {
    const at = '2026-12-01T11:00:00Z';
    const rows = sessionRows([entry('a', 'same', at), entry('b', 'same', at), entry('c', 'other', at)], NOW);
    expect(rows.map((row) => row.text)).toEqual([
      '  same · idle · 1h ago · a',
      '  same · idle · 1h ago · b',
      '  other · idle · 1h ago',
    ]);
  });

  it('show titles on one line, cut to leave room, and the id for an empty one', () => {
    expect(shortTitle(entry('a', 'one\u001b[2Jtwo\nthree', ''))).toBe('one [2Jtwo three');
    expect(shortTitle(entry('a', 'x'.repeat(100), ''))).toBe(`${'x'.repeat(47)}…`);
    expect(shortTitle(entry('s-1', '  ', ''))).toBe('s-1');
  });
});
