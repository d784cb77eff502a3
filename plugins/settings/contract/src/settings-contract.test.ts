import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  PREFERENCE_KEYS,
  Preferences,
  SETTINGS_KEY_PATTERN,
  Settings,
  isPreferenceKey,
  preferenceSchemas,
  preferencesStateSchema,
  type PreferenceKey,
} from './index';

describe('the settings contract', () => {
  it('is a plugin whose package metadata gives it a session facet and a TUI facet (/settings and themes)', () => {
    const metadata = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).pi;
    expect(metadata).toEqual({
      apiVersion: '2.1',
      description: expect.any(String),
      facets: { session: '@pi/settings-session', tui: '@pi/settings-tui' },
    });
  });

  it('keeps the full settings service local and exposes only the preferences façade', () => {
    expect(Settings.kind).toBe('local-service');
    expect(Preferences.kind).toBe('remote-service');
    expect(Object.keys(Preferences.exposure.methods)).toEqual(['set']);
    expect(Object.keys(Preferences.exposure.state)).toEqual(['state']);
  });

  it('allowlists exactly the theme, the default model and the default thinking level', () => {
    expect([...PREFERENCE_KEYS].sort()).toEqual(['defaultModel', 'defaultThinkingLevel', 'theme']);
    expectTypeOf<PreferenceKey>().toEqualTypeOf<'theme' | 'defaultModel' | 'defaultThinkingLevel'>();
    expect(isPreferenceKey('theme')).toBe(true);
    expect(isPreferenceKey('shellPath')).toBe(false);
    expect(isPreferenceKey('toString')).toBe(false);
  });

  it('rejects a key outside the allowlist at the wire schema', () => {
    const keySchema = Preferences.exposure.methods['set']?.args[0];
    expect(keySchema?.safeParse('theme').success).toBe(true);
    expect(keySchema?.safeParse('credentials').success).toBe(false);
  });

  it('checks each allowlisted value by its own schema', () => {
    expect(preferenceSchemas.theme.safeParse('solarized-dark').success).toBe(true);
    expect(preferenceSchemas.theme.safeParse('../../etc').success).toBe(false);
    expect(preferenceSchemas.defaultModel.safeParse({ provider: 'offline', modelId: 'echo' }).success).toBe(true);
    expect(preferenceSchemas.defaultModel.safeParse(null).success).toBe(true);
    expect(preferenceSchemas.defaultThinkingLevel.safeParse('medium').success).toBe(false);
  });

  it('describes a state with the preferences and the layer warnings', () => {
    const state = {
      theme: 'dark',
      defaultModel: null,
      defaultThinkingLevel: 'high',
      warnings: [{ layer: 'user', message: 'settings.json is not valid JSON' }],
    };
    expect(preferencesStateSchema.parse(state)).toEqual(state);
  });

  it('accepts dotted identifier keys only', () => {
    expect(SETTINGS_KEY_PATTERN.test('editor.tabSize')).toBe(true);
    for (const bad of ['', '.a', 'a.', 'a..b', '__proto__', 'a.__proto__', 'a b'])
      expect(SETTINGS_KEY_PATTERN.test(bad)).toBe(false);
  });
});
