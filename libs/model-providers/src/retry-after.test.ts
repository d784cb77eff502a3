import { describe, expect, it } from 'vitest';
import { retryAfterMs } from './retry-after';

const now = Date.parse('2025-01-01T12:00:00Z');

describe('retryAfterMs', () => {
  it('reads delay-seconds', () => {
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs(' 0 ', now)).toBe(0);
  });

  it('reads an HTTP date as the time left until it, and a past date as no wait', () => {
    expect(retryAfterMs('Wed, 01 Jan 2025 12:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Wed, 01 Jan 2025 11:00:00 GMT', now)).toBe(0);
  });

  it('is null when the server did not say when, or said it unreadably', () => {
    expect(retryAfterMs(null, now)).toBeNull();
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs('1.5', now)).toBeNull();
    expect(retryAfterMs('-3', now)).toBeNull();
    expect(retryAfterMs('9'.repeat(30), now)).toBeNull();
  });
});
