import { followState, type Facet } from '@pi/plugin-api';
import { SYSTEM_PROMPT_PLUGIN_ID, SystemPrompt } from '@pi/system-prompt';
import { wrapText } from '@pi/terminal';
import { systemPromptHeader } from './header-text';

/** The manifest id this facet answers to. */
export const pluginId = SYSTEM_PROMPT_PLUGIN_ID;

/**
 * The TUI facet of @pi/system-prompt: a header line naming the context files the model reads (and a custom or
 * appended system prompt), warnings for files that were not used, and `/context` to list them with their sizes.
 */
export const systemPromptTuiFacet: Facet<'tui'> = (context) => {
  const status = followState(
    context,
    SystemPrompt,
    (service) => service.status,
    () => context.ui.requestRender(),
  );
  context.slots.add('header', {
    render() {
      const current = status.current();
      return current === undefined ? [] : systemPromptHeader(current, context.ui.theme);
    },
  });
  context.slots.add('welcome', {
    render(width) {
      const current = status.current();
      if (current === undefined || !current.loaded || !current.contextFilesEnabled) return [];
      const files = current.contextFiles.map((file) => file.display);
      const text =
        files.length === 0
          ? 'No AGENTS.md here: project instructions for the model go in AGENTS.md (or CLAUDE.md) here, in a parent, or in ~/.config/pi.'
          : `The model follows ${files.join(', ')} (/context lists what it reads).`;
      return ['', ...wrapText(text, width)];
    },
  });
  context.commands.register({
    id: 'system-prompt.context',
    description: 'List the context files and prompt files the model reads, and read them again',
    slash: 'context',
    needsSession: true,
    async run(_args, callContext) {
      const service = await context.use(SystemPrompt);
      await service.reload(callContext);
      const current = service.status.value;
      const files = [
        ...current.contextFiles,
        ...(current.customPrompt === null ? [] : [current.customPrompt]),
        ...(current.appendedPrompt === null ? [] : [current.appendedPrompt]),
      ];
      const listed = files.map((file) => `${file.display} (${file.chars} chars)`).join(', ');
      context.ui.notify(
        files.length === 0
          ? 'No context files: add an AGENTS.md to the project to give the model instructions'
          : `Read: ${listed}`,
      );
    },
  });
};
