import type { AgentMessage, SummaryRequest, TextPart } from '@pi/agent-contract';
import { CHARS_PER_TOKEN } from './token-estimate';

/** A tool result longer than this is cut in the summary request: the summary needs what it showed, not all of it. */
export const SUMMARY_TOOL_RESULT_CHARS = 2000;

export const SUMMARY_SYSTEM_PROMPT = [
  'You write the summary that replaces the earlier part of a coding session, so that the work can go on within',
  "the model's context window. The summary is all that will remain of that part. Keep what the work needs: the",
  "user's goals and requests, decisions and their reasons, files read or changed (with paths), commands run and",
  'their important results, errors and how they were resolved, what was being done at the end and what remains.',
  'Be concise and factual. Write plain text or Markdown. Do not answer or continue the conversation.',
].join(' ');

/** The summary request as a system prompt and one user message: any chat model can answer it, tools or not. */
export function summaryPrompt(request: SummaryRequest): { system: string; user: string } {
  const maxChars = request.maxInputTokens === null ? null : request.maxInputTokens * CHARS_PER_TOKEN;
  const parts: string[] = [];
  if (request.previousSummary !== null)
    parts.push(`<previous-summary>\n${request.previousSummary}\n</previous-summary>`);
  parts.push(`<conversation>\n${conversationText(request.messages, maxChars)}\n</conversation>`);
  if (request.instructions !== null) parts.push(`Instructions from the user for this summary: ${request.instructions}`);
  parts.push(
    request.previousSummary === null
      ? 'Write the summary of the conversation above.'
      : 'Write one summary of the previous summary and the conversation after it.',
  );
  return { system: SUMMARY_SYSTEM_PROMPT, user: parts.join('\n\n') };
}

/**
 * The messages as plain text, one block per message, long tool results cut. Beyond `maxChars` the oldest blocks
 * are left out (and the text says so): the summary request must fit the window it is meant to relieve.
 */
export function conversationText(messages: readonly AgentMessage[], maxChars: number | null): string {
  const blocks = messages.map(messageBlock);
  if (maxChars === null) return blocks.join('\n\n');
  let used = 0;
  let first = blocks.length;
  while (first > 0 && used + (blocks[first - 1]?.length ?? 0) + 2 <= maxChars) {
    first -= 1;
    used += (blocks[first]?.length ?? 0) + 2;
  }
  if (first === 0) return blocks.join('\n\n');
  // Not even the newest message fits whole: its end is what the work was at.
  if (first === blocks.length) return `[… cut] ${(blocks[first - 1] ?? '').slice(-maxChars)}`;
  return [`[${first} earlier messages left out]`, ...blocks.slice(first)].join('\n\n');
}

function messageBlock(message: AgentMessage): string {
  switch (message.role) {
    case 'user':
      return `[User]: ${textOf(message.content)}`;
    case 'assistant': {
      const lines: string[] = [];
      const text = textOf(message.content.filter((part): part is TextPart => part.type === 'text'));
      if (text !== '') lines.push(`[Assistant]: ${text}`);
      for (const part of message.content) {
        if (part.type === 'tool_call') lines.push(`[Assistant called ${part.name}]: ${JSON.stringify(part.arguments)}`);
      }
      return lines.length === 0 ? '[Assistant]: (no answer)' : lines.join('\n');
    }
    case 'tool': {
      const text = textOf(message.content);
      const cut =
        text.length <= SUMMARY_TOOL_RESULT_CHARS
          ? text
          : `${text.slice(0, SUMMARY_TOOL_RESULT_CHARS)}… [${text.length - SUMMARY_TOOL_RESULT_CHARS} more characters]`;
      return `[${message.isError ? 'Tool error' : 'Tool result'} of ${message.toolName}]: ${cut}`;
    }
  }
}

function textOf(parts: readonly TextPart[]): string {
  return parts.map((part) => part.text).join('\n');
}
