import type { AgentMessage, JsonObject, ModelSpec, ProviderRequest, ToolResultMessage } from '@pi/agent';
import { parseAskPrompt } from './offline-ask-prompt';
import { parseCodingPrompt } from './offline-coding-prompts';
import { parseToolCommand } from './offline-tool-command';

/** What the offline model decided to do this turn: answer in text, or call one tool. */
export type OfflineReply =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'tool_call'; readonly name: string; readonly arguments: JsonObject };

/** The name the product's ask-the-user tool is registered under. */
export const QUESTION_TOOL_NAME = 'question';

export const OFFLINE_HELP = [
  'I am the offline model: I run without a network or key and answer deterministically.',
  '"ask me <question>: <a>, <b> or <c>" asks you through the question tool;',
  '"read <file>", "list files [in <dir>]", "find <glob> [in <dir>]", "grep <regex> [in <path>]",',
  '"run <command>" and "replace [all] <old> with <new> in <file>" call the coding tools (quote an argument',
  'with "…", \'…\' or `…` when it has spaces);',
  '"/tool <name> <json-args>" calls any offered tool; anything else is echoed back.',
].join(' ');

/**
 * The whole offline grammar, applied to the last message (see README.md):
 * - tool results (the previous turn called tools) → a sentence quoting each result;
 * - `/tool <name> [json]` → a call to that tool if it is offered, else an explanation;
 * - `help` or `/help` → what the offline model understands;
 * - `read <file>`, `run <command>`, `replace [all] <old> with <new> in <file>`, `list files [in <dir>]`,
 *   `find <glob> [in <dir>]`, `grep <regex> [in <path>]` (the whole prompt) → a call to `read`, `bash`, `edit`,
 *   `ls`, `find` or `grep` if offered, else an explanation;
 * - `… ask me <question>[: <a>, <b> or <c>]` → a `question` tool call if offered, else an explanation;
 * - anything else → "You said: <prompt>".
 * A reasoning model at a thinking level other than off prefixes text answers with `(thinking: <level>)`.
 */
export function decideOfflineReply(request: ProviderRequest, model: ModelSpec): OfflineReply {
  const reply = decideFromMessages(request);
  if (reply.kind === 'text' && model.reasoning && request.thinkingLevel !== 'off') {
    return { kind: 'text', text: `(thinking: ${request.thinkingLevel}) ${reply.text}` };
  }
  return reply;
}

function decideFromMessages(request: ProviderRequest): OfflineReply {
  const results = trailingToolResults(request.messages);
  if (results.length > 0) return { kind: 'text', text: results.map(describeToolResult).join(' ') };
  const prompt = lastUserText(request.messages);
  if (prompt === null || prompt.trim() === '') return { kind: 'text', text: 'There is nothing to answer yet.' };
  const offered = new Set(request.tools.map((tool) => tool.name));

  const command = parseToolCommand(prompt);
  if (command?.kind === 'invalid') return { kind: 'text', text: `I cannot call that tool: ${command.reason}.` };
  if (command?.kind === 'call') {
    if (offered.has(command.name)) return { kind: 'tool_call', name: command.name, arguments: command.arguments };
    return {
      kind: 'text',
      text: `I cannot call ${command.name}: it is not offered. Offered tools: ${listOrNone(offered)}.`,
    };
  }

  if (/^\/?help$/i.test(prompt.trim())) return { kind: 'text', text: OFFLINE_HELP };

  const coding = parseCodingPrompt(prompt);
  if (coding !== null) {
    if (offered.has(coding.name)) return { kind: 'tool_call', name: coding.name, arguments: coding.arguments };
    return { kind: 'text', text: `I would call ${coding.name}, but no ${coding.name} tool is offered.` };
  }
  const ask = parseAskPrompt(prompt);
  if (ask !== null) {
    if (!offered.has(QUESTION_TOOL_NAME))
      return { kind: 'text', text: `I would ask you "${ask.question}", but no question tool is offered.` };
    const options = ask.options.map((label) => ({ label, description: null }));
    return { kind: 'tool_call', name: QUESTION_TOOL_NAME, arguments: { question: ask.question, options } };
  }
  return { kind: 'text', text: `You said: ${prompt.trim()}` };
}

/** The tool results after the last assistant message: what the tools of the previous turn returned. */
function trailingToolResults(messages: readonly AgentMessage[]): ToolResultMessage[] {
  const results: ToolResultMessage[] = [];
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message?.role !== 'tool') break;
    results.unshift(message);
  }
  return results;
}

function lastUserText(messages: readonly AgentMessage[]): string | null {
  const last = messages.at(-1);
  if (last?.role !== 'user') return null;
  return last.content.map((part) => part.text).join('\n');
}

function describeToolResult(result: ToolResultMessage): string {
  const text = result.content
    .map((part) => part.text)
    .join(' ')
    .trim()
    .replace(/[.\s]+$/, '');
  if (result.toolName === QUESTION_TOOL_NAME) {
    return result.isError ? `The question was not answered: ${text}.` : `You answered: ${text}.`;
  }
  return result.isError
    ? `The ${result.toolName} tool failed: ${text}.`
    : `The ${result.toolName} tool returned: ${text}.`;
}

function listOrNone(names: ReadonlySet<string>): string {
  return names.size === 0 ? 'none' : [...names].join(', ');
}
