import { formatBytes } from '@pi/shell-command';
import type { JsonValue, UserMessage } from '@pi/agent';
import { shellOutcomeShape, type ShellOutcome, type ShellTranscriptEntry } from '@pi/chat';
import { z } from '@pi/plugin-api';

/**
 * What the session file keeps of a `!` or `!!` command: a `custom` entry of @pi/chat for `!!` (the model never
 * reads it), the `origin.data` of a user message for `!` (the model reads the message). The same record either way.
 */
export type ShellRecord = ShellOutcome & {
  type: 'shell';
  command: string;
  /** Bytes printed in all (stdout and stderr), before the tail was cut. */
  totalBytes: number;
  /** The timeout it ran with, for the notice of a command that reached it. */
  timeoutSeconds: number;
};

const shellRecordSchema: z.ZodType<ShellRecord> = z.object({
  type: z.literal('shell'),
  command: z.string(),
  ...shellOutcomeShape,
  totalBytes: z.number().int().min(0),
  timeoutSeconds: z.number().positive(),
});

/** The record in an entry's data, or null when the data is something else (another record of the plugin's). */
export function shellRecordOf(data: JsonValue): ShellRecord | null {
  const parsed = shellRecordSchema.safeParse(data);
  return parsed.success ? parsed.data : null;
}

export function shellTranscriptEntry(id: string, record: ShellRecord, includeInContext: boolean): ShellTranscriptEntry {
  const { command, output, exitCode, signal, timedOut, aborted, truncated } = record;
  return { kind: 'shell', id, command, includeInContext, output, exitCode, signal, timedOut, aborted, truncated };
}

/** How the command ended, and what of its output is missing, in one bracketed line; null for a clean exit 0. */
export function shellNotice(record: ShellRecord): string | null {
  const parts: string[] = [];
  if (record.truncated) parts.push(`Output cut: only its last lines of ${formatBytes(record.totalBytes)} are kept.`);
  if (record.timedOut) parts.push(`Killed after its ${record.timeoutSeconds} s timeout.`);
  else if (record.aborted) parts.push('Stopped by the user.');
  else if (record.exitCode === null) parts.push(`Killed by ${record.signal ?? 'a signal'}.`);
  else if (record.exitCode !== 0) parts.push(`Exit code ${record.exitCode}.`);
  return parts.length === 0 ? null : `[${parts.join(' ')}]`;
}

/** The user message the model reads for a `!` command: what was run, where, what it printed and how it ended. */
export function shellContextMessage(record: ShellRecord): UserMessage {
  const notice = shellNotice(record);
  const text = [
    'I ran this shell command in the working directory myself; its output follows.',
    `$ ${record.command}`,
    record.output === '' ? '(no output)' : record.output,
    ...(notice === null ? [] : [notice]),
  ].join('\n');
  return { role: 'user', content: [{ type: 'text', text }] };
}
