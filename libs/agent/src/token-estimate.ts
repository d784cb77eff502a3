import type { AgentMessage, ToolSchema } from '@pi/agent-contract';

/**
 * Token counts are estimates, never a tokenizer's: the characters of the JSON a value is sent as, divided by 4
 * (rounded up). English text and code run at 3–4 characters a token, so this errs towards counting more, and the
 * compaction threshold (80 % of the window) leaves room for the rest.
 */
export const CHARS_PER_TOKEN = 4;

export function estimateTokens(value: unknown): number {
  return Math.ceil((JSON.stringify(value)?.length ?? 0) / CHARS_PER_TOKEN);
}

export function estimateMessagesTokens(messages: readonly AgentMessage[]): number {
  let total = 0;
  for (const message of messages) total += estimateTokens(message);
  return total;
}

/** What one request holds: its messages and the schemas of the tools it offers. */
export function estimateRequestTokens(messages: readonly AgentMessage[], tools: readonly ToolSchema[]): number {
  return estimateMessagesTokens(messages) + (tools.length === 0 ? 0 : estimateTokens(tools));
}
