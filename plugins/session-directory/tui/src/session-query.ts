import type { SessionPickerEntry } from '@pi/session-directory';
import { printable } from './session-rows';

/**
 * The sessions `/sessions <query>` names: the one whose id is the query, else those whose id or title starts with
 * it, else those whose title contains it (case-insensitive). Several matches are for the user to choose from.
 */
export function matchSessions(entries: readonly SessionPickerEntry[], query: string): SessionPickerEntry[] {
  const wanted = query.trim();
  if (wanted === '') return [];
  const exact = entries.filter((entry) => entry.sessionId === wanted);
  if (exact.length > 0) return exact;
  const lower = wanted.toLowerCase();
  const title = (entry: SessionPickerEntry) => printable(entry.title).trim().toLowerCase();
  const prefixed = entries.filter(
    (entry) => entry.sessionId.toLowerCase().startsWith(lower) || title(entry).startsWith(lower),
  );
  return prefixed.length > 0 ? prefixed : entries.filter((entry) => title(entry).includes(lower));
}
