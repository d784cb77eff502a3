import type { JsonObject } from '@pi/agent';

/** A parsed `/tool <name> [json-args]` line: the call to make, or why it cannot be made. */
export type ToolCommand =
  | { readonly kind: 'call'; readonly name: string; readonly arguments: JsonObject }
  | { readonly kind: 'invalid'; readonly reason: string };

const toolCommandPattern = /^\/tool(?:\s+(\S+))?(?:\s+([\s\S]*))?$/;

/**
 * Reads an explicit tool call: the prompt starts with `/tool`, then the tool name, then optional JSON object
 * arguments (missing → `{}`). Returns null when the prompt is not a tool command at all.
 */
export function parseToolCommand(prompt: string): ToolCommand | null {
  const match = toolCommandPattern.exec(prompt.trim());
  if (match === null) return null;
  const name = match[1];
  if (name === undefined) return { kind: 'invalid', reason: 'usage: /tool <name> [json-object-arguments]' };
  const argumentText = match[2]?.trim() ?? '';
  if (argumentText === '') return { kind: 'call', name, arguments: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(argumentText);
  } catch {
    return { kind: 'invalid', reason: `the arguments for ${name} are not valid JSON` };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { kind: 'invalid', reason: `the arguments for ${name} must be a JSON object` };
  }
  // JSON.parse output is strict JSON by construction.
  return { kind: 'call', name, arguments: parsed as JsonObject };
}
