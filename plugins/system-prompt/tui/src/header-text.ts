import type { TuiTheme } from '@pi/plugin-api';
import type { SystemPromptStatus } from '@pi/system-prompt';

/**
 * The header lines that say what the model reads besides the conversation: the context files in the order they
 * are sent, a replaced or extended system prompt, and each file that was found and not used. Nothing when there
 * is nothing to say.
 */
export function systemPromptHeader(status: SystemPromptStatus, theme: TuiTheme): string[] {
  if (!status.loaded) return [];
  const parts: string[] = [];
  if (status.contextFiles.length > 0) {
    parts.push(`Context: ${status.contextFiles.map((file) => file.display).join(', ')}`);
  } else if (!status.contextFilesEnabled) {
    parts.push('Context files off');
  }
  if (status.customPrompt !== null) parts.push(`System prompt: ${status.customPrompt.display}`);
  if (status.appendedPrompt !== null) parts.push(`Appended: ${status.appendedPrompt.display}`);
  const lines = parts.length === 0 ? [] : [theme.fg('muted', parts.join(' · '))];
  return [...lines, ...status.warnings.map((warning) => theme.fg('warning', warning))];
}
