import { describe, expect, it } from 'vitest';
import { RemoteError } from '@pi/plugin-api';
import { failureText } from './failure-text';

describe('failure text', () => {
  it('words each code of the picker on one line', () => {
    expect(failureText(new RemoteError('unavailable', 'The coordinator is unreachable'))).toBe(
      'The coordinator is unreachable',
    );
    expect(failureText(new RemoteError('unknown_session', 'Not visible: s-9'))).toBe(
      "that session is not in this project's list (any more): Not visible: s-9",
    );
    expect(failureText(new RemoteError('current_session', 'x'))).toBe(
      'that is the session you are in — switch to another one first',
    );
    expect(failureText(new RemoteError('not_authorized', 'Not yours'))).toBe('not allowed: Not yours');
    expect(failureText(new RemoteError('unknown_service', 'x'))).toContain('no session directory');
  });

  it('keeps the code of any other error, and makes every message printable', () => {
    expect(failureText(new RemoteError('timeout', 'Too slow'))).toBe('Too slow (timeout)');
    expect(failureText(new Error('two\nlines'))).toBe('two lines');
    expect(failureText('plain')).toBe('plain');
  });
});
