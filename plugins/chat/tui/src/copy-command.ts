import type { TranscriptEntry } from '@pi/chat';
import type { CodingAgentTuiPluginContext } from '@pi/plugin-api';

/** The command id (keybindings name it). */
export const COPY_COMMAND = 'chat.copy';

/** The text of the newest answer that has any, or undefined when the model has not answered yet. */
export function lastAnswer(entries: readonly TranscriptEntry[]): string | undefined {
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = entries[index];
    if (entry?.kind === 'assistant' && entry.text.trim() !== '') return entry.text;
  }
  return undefined;
}

/** `/copy`: the last answer onto the clipboard of the machine the terminal runs on. */
export function registerCopyCommand(
  context: CodingAgentTuiPluginContext,
  entries: () => readonly TranscriptEntry[],
): void {
  context.commands.register({
    id: COPY_COMMAND,
    slash: 'copy',
    description: "Copy the model's last answer to the clipboard",
    run() {
      const text = lastAnswer(entries());
      if (text === undefined) return context.ui.notify('Nothing to copy yet: the model has not answered');
      context.ui.copyToClipboard(text);
      const lines = text.split('\n').length;
      context.ui.notify(`Copied the last answer (${lines === 1 ? `${text.length} characters` : `${lines} lines`})`);
    },
  });
}
