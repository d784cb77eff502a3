import { thinkingLevelSchema } from '@pi/providers-builtin';
import { modelPreferenceSchema, type SettingsStore } from '@pi/settings';
import { INITIAL_MODELS_STATE, type ModelDefaults } from './models-authority';

/**
 * What a new session selects: the settings' `defaultModel` and `defaultThinkingLevel` when the settings
 * plugin is present and the values are well-formed, else no preferred model (the authority then picks the
 * offline provider's first) and the spec's initial thinking level.
 */
export function modelDefaults(settings: SettingsStore | undefined): ModelDefaults {
  const model = modelPreferenceSchema.safeParse(settings?.get('defaultModel'));
  const thinkingLevel = thinkingLevelSchema.safeParse(settings?.get('defaultThinkingLevel'));
  return {
    model: model.success ? model.data : null,
    thinkingLevel: thinkingLevel.success ? thinkingLevel.data : INITIAL_MODELS_STATE.configuration.thinkingLevel,
  };
}
