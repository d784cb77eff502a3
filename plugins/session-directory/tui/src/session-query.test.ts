import { describe, expect, it } from 'vitest';
import type { SessionPickerEntry } from '@pi/session-directory';
import { matchSessions } from './session-query';

const entry = (sessionId: string, title: string): SessionPickerEntry => ({
  sessionId,
  title,
  status: 'idle',
  updatedAt: '',
  isCurrent: false,
});
const SESSIONS = [entry('s-1', 'Fix the build'), entry('s-12', 'fix the docs'), entry('s-3', 'spike on s-1 bug')];
const ids = (query: string) => matchSessions(SESSIONS, query).map((session) => session.sessionId);

describe('naming a session', () => {
  it('an exact id names that session even when it prefixes others', () => {
    expect(ids('s-1')).toEqual(['s-1']);
  });

  it('else an id or title prefix, case-insensitive', () => {
    expect(ids('s-')).toEqual(['s-1', 's-12', 's-3']);
    expect(ids('FIX THE')).toEqual(['s-1', 's-12']);
    expect(ids('fix the d')).toEqual(['s-12']);
  });

  it('else words inside a title; nothing for no match or an empty query', () => {
    expect(ids('docs')).toEqual(['s-12']);
    expect(ids('nope')).toEqual([]);
    expect(ids('  ')).toEqual([]);
  });
});
