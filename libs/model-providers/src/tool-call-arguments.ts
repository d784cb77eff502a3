import { ProviderError, type JsonObject } from '@pi/agent';

/**
 * A tool call's arguments as streamed in pieces (Anthropic's input JSON, OpenAI's arguments text), once whole: a
 * JSON object, `{}` for nothing at all (a call without arguments), else a `malformed` ProviderError naming the tool.
 */
export function toolCallArguments(text: string, toolName: string): JsonObject {
  const trimmed = text.trim();
  let parsed: unknown;
  try {
    parsed = trimmed === '' ? {} : JSON.parse(trimmed);
  } catch {
    throw new ProviderError('malformed', `the arguments of tool call ${toolName} are not valid JSON`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ProviderError('malformed', `the arguments of tool call ${toolName} are not a JSON object`);
  }
  // JSON.parse output is strict JSON by construction.
  return parsed as JsonObject;
}
