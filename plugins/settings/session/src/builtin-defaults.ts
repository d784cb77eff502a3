import type { PreferenceValues } from '@pi/settings';

/**
 * The defaults layer before the manifest's: what a fresh install uses. `defaultModel: null` lets the providers
 * plugin pick its own first model; `high` is the spec's initial thinking level (a model without reasoning
 * runs with `off` regardless).
 */
export const BUILTIN_DEFAULTS: PreferenceValues = Object.freeze({
  theme: 'dark',
  defaultModel: null,
  defaultThinkingLevel: 'high',
});
