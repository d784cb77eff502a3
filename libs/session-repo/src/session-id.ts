import { randomBytes } from 'node:crypto';

/** A new session id as the session app makes one: `s-YYYY-MM-DD-<8 hex>`, the date in UTC. */
export function generateSessionId(now: Date): string {
  return `s-${now.toISOString().slice(0, 10)}-${randomBytes(4).toString('hex')}`;
}
