import { describe, expect, it } from 'vitest';
import { REMOTE_ERROR_CODES } from '@pi/remote';
import { EXIT, exitCodeOf } from './exit-codes';

describe('exit codes', () => {
  it('maps every stable code to its documented exit code', () => {
    expect(Object.fromEntries(Object.values(REMOTE_ERROR_CODES).map((code) => [code, exitCodeOf(code)]))).toEqual({
      internal: 1,
      invalid_result: 1,
      unavailable: 3,
      disconnected: 3,
      not_authorized: 4,
      unknown_service: 5,
      unknown_member: 5,
      invalid_argument: 6,
      cancelled: 7,
      timeout: 7,
      limit_exceeded: 8,
      no_handler: 8,
      stale_reference: 8,
    });
  });

  it("gives a service's own code its own exit code, and keeps 0 and 2 for success and usage", () => {
    expect(exitCodeOf('unknown_model')).toBe(EXIT.serviceError);
    expect(exitCodeOf('toString')).toBe(EXIT.serviceError);
    expect(EXIT.ok).toBe(0);
    expect(EXIT.usage).toBe(2);
    expect(new Set(Object.values(EXIT)).size).toBe(Object.keys(EXIT).length);
  });
});
