import type { AgentMessage, SessionEntry } from '@pi/agent-contract';

export type CompactionEntry = Extract<SessionEntry, { kind: 'compaction' }>;

export type CustomEntry = Extract<SessionEntry, { kind: 'custom' }>;

/**
 * What the model reads of a plugin's custom entry (its entry projector): messages in the entry's place, or nothing
 * (undefined or none), which leaves the entry durable, placed and synced but invisible to the model.
 */
export type EntryProjection = (entry: CustomEntry) => readonly AgentMessage[] | undefined;

/** One message of a request's context and the entry it came from. */
export interface ContextItem {
  readonly entryId: string;
  readonly message: AgentMessage;
}

/**
 * What a request built from a branch sends: the latest compaction on the branch (its summary goes first), then the
 * messages it kept and every message after it. Without a compaction: every message of the branch.
 */
export interface BranchContext {
  readonly compaction: CompactionEntry | null;
  readonly items: readonly ContextItem[];
}

export function branchContext(branch: readonly SessionEntry[], project?: EntryProjection): BranchContext {
  let start = 0;
  let compaction: CompactionEntry | null = null;
  for (let index = branch.length - 1; index >= 0; index -= 1) {
    const entry = branch[index];
    if (entry?.kind !== 'compaction') continue;
    compaction = entry;
    const kept = entry.firstKeptEntryId === null ? -1 : branch.findIndex(({ id }) => id === entry.firstKeptEntryId);
    // The kept tail lies before its compaction on the same branch; if it is not there (a file edited by hand),
    // keep nothing rather than resend what the summary replaced.
    start = kept >= 0 && kept < index ? kept : index + 1;
    break;
  }
  const items: ContextItem[] = [];
  for (const entry of branch.slice(start)) {
    if (entry.kind === 'message') items.push({ entryId: entry.id, message: entry.message });
    if (entry.kind === 'custom' && project !== undefined) {
      for (const message of project(entry) ?? []) items.push({ entryId: entry.id, message });
    }
  }
  return { compaction, items };
}

/** The messages a request sends for this context (before `before_model_request` hooks adjust them). */
export function contextMessages(context: BranchContext): AgentMessage[] {
  const messages = context.items.map((item) => item.message);
  return context.compaction === null ? messages : [summaryMessage(context.compaction.summary), ...messages];
}

/** The summary as the model reads it: a user message in front of what was kept. */
export function summaryMessage(summary: string): AgentMessage {
  const text =
    'The earlier part of this conversation was compacted to save context. Summary of it:\n\n' +
    `${summary}\n\n(The conversation continues from here.)`;
  return { role: 'user', content: [{ type: 'text', text }] };
}
