import { z } from 'zod';

/**
 * A provider id as credentials are keyed by it: lower-case words, digits, dots, dashes and underscores. The
 * pattern keeps ids usable as JSON keys (an id cannot start with `_`, so `__proto__` is never one).
 */
export const PROVIDER_ID_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;

export const providerIdSchema = z
  .string()
  .regex(PROVIDER_ID_PATTERN, 'A provider id is lower-case letters, digits, ".", "-" or "_" (at most 64)');

export function isProviderId(value: string): boolean {
  return PROVIDER_ID_PATTERN.test(value);
}
