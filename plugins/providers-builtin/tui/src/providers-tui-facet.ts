import { Chat } from '@pi/chat';
import { wrapText } from '@pi/terminal';
import { followState, type Facet } from '@pi/plugin-api';
import { Models, PROVIDERS_BUILTIN_PLUGIN_ID } from '@pi/providers-builtin';
import { registerModelCommands } from './model-commands';
import { footerLine, welcomeText } from './model-text';

/** The manifest id this facet answers to. */
export const pluginId = PROVIDERS_BUILTIN_PLUGIN_ID;

/**
 * The TUI facet of @pi/providers-builtin: the model picker (Ctrl+L, `/model`), the thinking level (Ctrl+T,
 * `/thinking`), `/refresh`, and a footer line with the model, the thinking level and the session's usage. It holds no catalogue of its own:
 * it calls the session's Models and shows its replicated state.
 */
export const providersBuiltinTuiFacet: Facet<'tui'> = (context) => {
  const models = followState(
    context,
    Models,
    (proxy) => proxy.state,
    () => context.ui.requestRender(),
  );
  // The session's usage comes from the chat plugin; without it the footer shows the model alone.
  const usage = followState(
    context,
    Chat,
    (chat) => chat.usage,
    () => context.ui.requestRender(),
  );
  registerModelCommands(context);
  const footer = footerLine((text) => context.ui.theme.fg('muted', text));
  context.slots.add('footer', {
    render() {
      const state = models.current();
      return state === undefined ? [] : [footer(state, usage.current())];
    },
  });
  context.slots.add('welcome', {
    render(width) {
      const state = models.current();
      if (state === undefined) return [];
      const keys = { picker: context.ui.keyHint('modelPicker'), thinking: context.ui.keyHint('thinkingCycle') };
      return welcomeText(state, keys).flatMap((line) => ['', ...wrapText(line, width)]);
    },
  });
};
