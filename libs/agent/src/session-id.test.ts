import { describe, expect, it } from 'vitest';
import { isValidSessionId, sessionFilePath } from './session-id';

describe('sessionFilePath', () => {
  it('puts the session under XDG_DATA_HOME when it is set', () => {
    expect(sessionFilePath('abc-1', { XDG_DATA_HOME: '/data', HOME: '/home/u' })._unsafeUnwrap()).toBe(
      '/data/pi/sessions/abc-1.jsonl',
    );
  });

  it('falls back to ~/.local/share when XDG_DATA_HOME is unset or relative', () => {
    expect(sessionFilePath('s', { HOME: '/home/u' })._unsafeUnwrap()).toBe('/home/u/.local/share/pi/sessions/s.jsonl');
    expect(sessionFilePath('s', { HOME: '/home/u', XDG_DATA_HOME: 'rel' })._unsafeUnwrap()).toBe(
      '/home/u/.local/share/pi/sessions/s.jsonl',
    );
  });

  it.each(['../etc', 'a/b', 'a\\b', '.', '..', '', '.hidden', 'x'.repeat(129)])('rejects the session id %j', (id) => {
    expect(isValidSessionId(id)).toBe(false);
    expect(sessionFilePath(id, { HOME: '/h' })._unsafeUnwrapErr().code).toBe('invalid_session_id');
  });
});
