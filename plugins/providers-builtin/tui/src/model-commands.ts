import { RemoteError, type CodingAgentTuiPluginContext, type Context } from '@pi/plugin-api';
import { Models, type ModelRef, type ModelsService } from '@pi/providers-builtin';
import { Preferences, type PreferenceValues } from '@pi/settings';
import { failureText } from './failure-text';
import { parseModelArgument } from './model-argument';
import { PICKER_TITLE, modelChoices, modelLabel, pickerNote, sameModel, warningText } from './model-text';

/** The ids the TUI host runs for its own keys: Ctrl+L is `models.pick`, Ctrl+T is `thinking.cycle`. */
export const MODEL_COMMANDS = {
  pick: 'models.pick',
  thinking: 'thinking.cycle',
  refresh: 'models.refresh',
} as const;

/**
 * The model picker, the thinking level and the catalogue refresh, as commands over the session's Models.
 * Every outcome is shown to the user; nothing is thrown at the host.
 */
export function registerModelCommands(context: CodingAgentTuiPluginContext): void {
  const { ui } = context;
  const attempt = async (what: string, body: (models: ModelsService) => Promise<void>) => {
    try {
      await body(await context.use(Models));
    } catch (failure) {
      ui.notify(`${what}: ${failureText(failure)}`, 'error');
    }
  };

  /**
   * A model or level chosen here is what the next session starts with, as in pi: it becomes the user's preference
   * (a `--model` given to one `pi -p` does not). Without the settings plugin the choice holds for this session.
   */
  const remember = async <K extends 'defaultModel' | 'defaultThinkingLevel'>(
    key: K,
    value: PreferenceValues[K],
    callContext: Context,
  ) => {
    try {
      await (await context.use(Preferences)).set(key, value, callContext);
    } catch (failure) {
      // A session without the settings plugin has nowhere to keep it: nothing to say.
      if (failure instanceof RemoteError && failure.code === 'unknown_service') return;
      ui.notify(`Not kept for new sessions: ${failureText(failure)}`, 'warning');
    }
  };
  const select = async (models: ModelsService, model: ModelRef, callContext: Context) => {
    await models.select(model, callContext);
    await remember('defaultModel', { provider: model.provider, modelId: model.modelId }, callContext);
  };

  const pick = async (models: ModelsService, callContext: Context) => {
    const state = models.state.value;
    const choices = modelChoices(state);
    if (choices.length === 0) {
      return ui.notify('No models in the catalogue — /refresh reads models.json again', 'warning');
    }
    // The refresh line is drawn from the live state, so a refresh that ends while the picker is open is seen.
    const stopWatching = models.state.subscribe(() => ui.requestRender());
    const choice = await ui
      .select(PICKER_TITLE, choices, {
        signal: callContext.abortSignal,
        body: { render: () => pickerNote(state, models.state.value).map((line) => ui.theme.fg('muted', line)) },
      })
      .finally(stopWatching);
    const model = choice === undefined ? undefined : state.catalog.availableModels[choices.indexOf(choice)];
    if (model !== undefined) await select(models, model, callContext);
  };

  context.commands.register({
    id: MODEL_COMMANDS.pick,
    slash: 'model',
    description: 'Pick the model from the catalogue; /model provider/model selects one directly',
    needsSession: true,
    run: (args, callContext) =>
      attempt('Model not changed', async (models) => {
        if (args.trim() === '') return pick(models, callContext);
        const parsed = parseModelArgument(args, models.state.value.catalog.availableModels);
        if ('problem' in parsed) return ui.notify(parsed.problem, 'warning');
        await select(models, parsed.model, callContext);
      }),
  });

  context.commands.register({
    id: MODEL_COMMANDS.thinking,
    slash: 'thinking',
    description: 'Cycle the thinking level: off, low, high',
    needsSession: true,
    run: (_args, callContext) =>
      attempt('Thinking level', async (models) => {
        await models.cycleThinking(callContext);
        const { catalog, configuration } = models.state.value;
        const model = catalog.availableModels.find((spec) => sameModel(configuration.model, spec));
        if (model !== undefined && !model.reasoning) {
          ui.notify(`${modelLabel(model)} has no thinking levels: thinking stays off`);
        } else await remember('defaultThinkingLevel', configuration.thinkingLevel, callContext);
      }),
  });

  context.commands.register({
    id: MODEL_COMMANDS.refresh,
    slash: 'refresh',
    description: 'Read models.json again and ask each configured server for its models',
    needsSession: true,
    run: (_args, callContext) =>
      attempt('Refresh', async (models) => {
        await models.refresh(callContext);
        const { refresh, catalog } = models.state.value;
        const count = `${catalog.availableModels.length} model${catalog.availableModels.length === 1 ? '' : 's'}`;
        if (refresh.status === 'warning') {
          ui.notify(`Models refreshed (${count}), with problems — ${warningText(refresh.errors)}`, 'warning');
        } else {
          ui.notify(`Models refreshed: ${count}`);
        }
      }),
  });
}
