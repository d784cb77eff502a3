import type { SummaryRequest, TextPart } from '@pi/agent';

/** How much of each prompt the offline summary quotes. */
const PROMPT_CHARS = 200;

/**
 * The offline model's summary: deterministic, from the messages alone — the earlier summary, the user's prompts in
 * order, the tools used (with how often), and the instructions. Enough to see compaction work end to end offline.
 */
export function offlineSummary(request: SummaryRequest): string {
  const prompts: string[] = [];
  const tools = new Map<string, number>();
  for (const message of request.messages) {
    if (message.role === 'user') prompts.push(cut(textOf(message.content)));
    if (message.role === 'assistant')
      for (const part of message.content) {
        if (part.type === 'tool_call') tools.set(part.name, (tools.get(part.name) ?? 0) + 1);
      }
  }
  const lines = [`Offline summary of ${request.messages.length} earlier messages.`];
  if (request.previousSummary !== null) lines.push('', 'Before them:', request.previousSummary);
  lines.push('', 'The user asked:', ...(prompts.length === 0 ? ['(nothing)'] : prompts.map((prompt) => `- ${prompt}`)));
  const used = [...tools].map(([name, count]) => (count === 1 ? name : `${name} ×${count}`));
  lines.push('', `Tools used: ${used.length === 0 ? 'none' : used.join(', ')}`);
  if (request.instructions !== null) lines.push('', `Instructions: ${request.instructions}`);
  return lines.join('\n');
}

function textOf(parts: readonly TextPart[]): string {
  return parts
    .map((part) => part.text)
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function cut(text: string): string {
  return text.length <= PROMPT_CHARS ? text : `${text.slice(0, PROMPT_CHARS - 1)}…`;
}
