import type { AgentMessage, MessageOrigin, SessionEntry } from '@pi/agent';
import { CHAT_PLUGIN_ID, type TranscriptEntry } from '@pi/chat';
import { shellRecordOf, shellTranscriptEntry } from './shell-record';

/** The transcript entries of a branch, and the run that started on it and has not settled (or null). */
export interface ProjectedTranscript {
  entries: TranscriptEntry[];
  running: string | null;
}

/**
 * The transcript of the current branch, as presentations read it. Custom entries are a plugin's own record and
 * are left out, but for this plugin's `!!` commands (its `!` commands are messages with this plugin as their
 * origin). `running` is derived from the durable entries, like everything else here: the last run that started on
 * this branch and has no settlement after it.
 */
export function projectTranscript(branch: readonly SessionEntry[]): ProjectedTranscript {
  const entries: TranscriptEntry[] = [];
  let running: string | null = null;
  for (const entry of branch) {
    const projected = toTranscriptEntry(entry);
    if (projected === null) continue;
    entries.push(projected);
    running = runningAfter(running, projected);
  }
  return { entries, running };
}

/** The run in progress once `entry` is appended to a branch whose run in progress was `running`. */
export function runningAfter(running: string | null, entry: TranscriptEntry): string | null {
  if (entry.kind === 'run_started') return entry.operationId;
  if (entry.kind === 'run_settled' && entry.operationId === running) return null;
  return running;
}

export function toTranscriptEntry(entry: SessionEntry): TranscriptEntry | null {
  switch (entry.kind) {
    case 'message':
      return shellEntry(entry.id, entry.origin, true) ?? fromMessage(entry.id, entry.operationId, entry.message);
    case 'operation_started':
      return { kind: 'run_started', id: entry.id, operationId: entry.operationId };
    case 'cancel_requested':
      return { kind: 'abort_requested', id: entry.id, operationId: entry.operationId };
    case 'operation_settled':
      return {
        kind: 'run_settled',
        id: entry.id,
        operationId: entry.operationId,
        outcome: entry.outcome,
        error: entry.error,
      };
    case 'compaction':
      return {
        kind: 'compaction',
        id: entry.id,
        operationId: entry.operationId,
        trigger: entry.trigger,
        summary: entry.summary,
        instructions: entry.instructions,
        tokensBefore: entry.tokensBefore,
        tokensAfter: entry.tokensAfter,
      };
    case 'custom':
      return shellEntry(entry.id, entry, false);
    case 'leaf_moved':
    case 'queue_added':
    case 'queue_withdrawn':
      return null;
  }
}

/** A `!` (a message the model reads) or `!!` (a custom entry) command of this plugin's; null for anything else. */
function shellEntry(id: string, origin: MessageOrigin | undefined, includeInContext: boolean): TranscriptEntry | null {
  if (origin?.namespace !== CHAT_PLUGIN_ID) return null;
  const record = shellRecordOf(origin.data);
  return record === null ? null : shellTranscriptEntry(id, record, includeInContext);
}

function fromMessage(id: string, operationId: string | null, message: AgentMessage): TranscriptEntry {
  switch (message.role) {
    case 'user':
      return { kind: 'user', id, operationId, text: joinText(message.content) };
    case 'assistant':
      return {
        kind: 'assistant',
        id,
        operationId,
        text: joinText(message.content),
        toolCalls: message.content.flatMap((part) =>
          part.type === 'tool_call' ? [{ id: part.id, name: part.name, arguments: part.arguments }] : [],
        ),
        stopReason: message.stopReason,
        ...(message.usage === undefined ? {} : { usage: { ...message.usage } }),
      };
    case 'tool':
      return {
        kind: 'tool_result',
        id,
        operationId,
        toolCallId: message.toolCallId,
        toolName: message.toolName,
        text: joinText(message.content),
        details: message.details,
        isError: message.isError,
      };
  }
}

function joinText(parts: ReadonlyArray<{ type: string; text?: string }>): string {
  return parts.flatMap((part) => (part.type === 'text' && part.text !== undefined ? [part.text] : [])).join('');
}
