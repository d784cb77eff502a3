import type { HarnessEvent, SessionEntry, Usage } from '@pi/agent';
import { EMPTY_SESSION_USAGE, type SessionInfo, type SessionUsage } from '@pi/chat';
import type { Context } from '@pi/context';
import type { MutableRemoteState } from '@pi/remote';

/** The session's usage over these entries (a restored file's, at start). */
export function usageOf(entries: readonly SessionEntry[]): SessionUsage {
  let totals = EMPTY_SESSION_USAGE;
  for (const entry of entries) totals = withEntry(totals, entry);
  return totals;
}

/** Keeps `usage` equal to the totals as answers are appended, one set per answer that reported usage. */
export function usageProjection(
  usage: MutableRemoteState<SessionUsage>,
): (event: HarnessEvent, source: Context) => void {
  return (event, source) => {
    if (event.type !== 'entry_appended') return;
    const next = withEntry(usage.value, event.entry);
    if (next !== usage.value) usage.set(next, source);
  };
}

function withEntry(totals: SessionUsage, entry: SessionEntry): SessionUsage {
  if (entry.kind !== 'message' || entry.message.role !== 'assistant' || entry.message.usage === undefined)
    return totals;
  return add(totals, entry.message.usage);
}

function add(totals: SessionUsage, usage: Usage): SessionUsage {
  return {
    input: totals.input + usage.input,
    output: totals.output + usage.output,
    cacheRead: totals.cacheRead + usage.cacheRead,
    cacheWrite: totals.cacheWrite + usage.cacheWrite,
    cost: totals.cost + (usage.cost ?? 0),
    contextTokens: usage.input + usage.cacheRead + usage.cacheWrite + usage.output,
  };
}

/** `/session`'s answer: the session's identity and file, what the file holds, and the usage so far. */
export function sessionInfo(
  sessionId: string,
  file: string,
  entries: readonly SessionEntry[],
  usage: SessionUsage,
): SessionInfo {
  const messages = { user: 0, assistant: 0, tool: 0 };
  for (const entry of entries) if (entry.kind === 'message') messages[entry.message.role] += 1;
  return { sessionId, file, entries: entries.length, messages, usage };
}
