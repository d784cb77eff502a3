import {
  BACKGROUND_CONTEXT,
  type CodingAgentTuiPluginContext,
  type FollowedState,
  type JsonValue,
  type WritableSettingLayer,
} from '@pi/plugin-api';
import { SettingsCatalog, type SettingsCatalogService, type SettingsCatalogState } from '@pi/settings';
import { SettingsPanel } from './settings-panel';
import { formatValue } from './value-kind';

export const SETTINGS_COMMAND_ID = 'settings.open';

/**
 * `/settings`: re-reads the files (hand edits and new theme files show up), then opens the settings panel as an
 * overlay. A change the session refuses is told as a notice; nothing is thrown at the host.
 */
export function registerSettingsCommand(
  context: CodingAgentTuiPluginContext,
  catalog: FollowedState<SettingsCatalogState>,
): SettingsPanel {
  const { ui } = context;
  const attempt = (what: string, run: (service: SettingsCatalogService) => Promise<void>) => {
    void context
      .use(SettingsCatalog)
      .then(run)
      .catch((failure: unknown) =>
        ui.notify(`${what}: ${failure instanceof Error ? failure.message : String(failure)}`, 'error'),
      );
  };
  const panel = new SettingsPanel(
    {
      state: () => catalog.current(),
      set: (key: string, value: JsonValue, layer: WritableSettingLayer) =>
        attempt(`${key} not changed`, async (service) => {
          await service.set(key, value, layer, BACKGROUND_CONTEXT);
          ui.notify(`${key} = ${formatValue(value)} (${layer})`, 'info');
        }),
      unset: (key: string, layer: WritableSettingLayer) =>
        attempt(`${key} not reset`, async (service) => {
          await service.unset(key, layer, BACKGROUND_CONTEXT);
        }),
      tell: (message) => ui.notify(message, 'warning'),
      changed: () => ui.requestRender(),
    },
    ui.theme,
  );
  context.own(context.slots.add('overlay', panel));

  context.commands.register({
    id: SETTINGS_COMMAND_ID,
    slash: 'settings',
    description:
      'Show every setting with its value and layer, and change them in place (this session, you, the project)',
    needsSession: true,
    async run(_args, callContext) {
      try {
        await (await context.use(SettingsCatalog)).reload(callContext);
      } catch (failure) {
        ui.notify(`Settings not re-read: ${failure instanceof Error ? failure.message : String(failure)}`, 'warning');
      }
      panel.open();
    },
  });
  return panel;
}
