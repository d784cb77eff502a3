import { followState, type CodingAgentTuiPluginContext, type Facet } from '@pi/plugin-api';
import { PROMPT_RESOURCES_PLUGIN_ID, PromptResources, type PromptResourcesStatus } from '@pi/prompt-resources';
import { wrapText } from '@pi/terminal';
import { resourceCommands, type ResourceCommand } from './resource-commands';
import { welcomeText } from './welcome-text';

/** The manifest id this facet answers to. */
export const pluginId = PROMPT_RESOURCES_PLUGIN_ID;

/**
 * The TUI facet of @pi/prompt-resources: a command per skill (`/skill:name`) and per prompt template (`/name`) of
 * the session, so the `/` menu lists them with their descriptions; running one asks the session to expand the line
 * and sends the text as a prompt. The commands follow the session's list; a new session's welcome names them.
 */
export const promptResourcesTuiFacet: Facet<'tui'> = (context) => {
  let registered: { key: string; removers: Array<() => void> } = { key: '', removers: [] };
  const sync = (status: PromptResourcesStatus) => {
    const commands = resourceCommands(status);
    const key = JSON.stringify(commands);
    if (key === registered.key) return;
    for (const remove of registered.removers) remove();
    registered = { key, removers: commands.flatMap((command) => register(context, command)) };
  };
  const status = followState(
    context,
    PromptResources,
    (service) => service.status,
    (value) => {
      sync(value);
      context.ui.requestRender();
    },
  );
  context.slots.add('welcome', {
    render(width) {
      const current = status.current();
      const text = current === undefined ? '' : welcomeText(current);
      return text === '' ? [] : ['', ...wrapText(text, width)];
    },
  });
};

/** Registers one command; a name another plugin's command holds stays that command's, and a notice says so. */
function register(context: CodingAgentTuiPluginContext, command: ResourceCommand): Array<() => void> {
  try {
    return [
      context.commands.register({
        id: command.id,
        slash: command.slash,
        description: command.description,
        needsSession: true,
        ...(command.arguments === undefined ? {} : { arguments: command.arguments }),
        run: async (args, callContext) => {
          const service = await context.use(PromptResources);
          const line = args === '' ? `/${command.slash}` : `/${command.slash} ${args}`;
          const expanded = await service.expand({ line }, callContext);
          if (expanded === null) return context.ui.notify(`/${command.slash} is gone from the session`, 'warning');
          await context.editor.send(expanded.text);
        },
      }),
    ];
  } catch {
    context.ui.notify(`${command.display} is not a command: /${command.slash} is already one`, 'warning');
    return [];
  }
}
