import { z } from 'zod';
import { SESSION_STATUSES } from '@pi/plugin-api';

/** The field schemas both surfaces share, declared once. */
export const sessionIdSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/, 'a session id');

export const sessionStatusSchema = z.enum(SESSION_STATUSES as ['starting', 'active', 'idle', 'closed']);

/** The most characters a session title has. */
export const MAX_SESSION_TITLE = 200;

/** A title a person typed: trimmed, 1–200 characters, no control characters (they would repaint a terminal). */
export const sessionTitleSchema = z
  .string()
  .trim()
  .min(1)
  .max(MAX_SESSION_TITLE)
  .regex(/^[^\p{Cc}]*$/u, 'no control characters');
