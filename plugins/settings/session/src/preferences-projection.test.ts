import { describe, expect, it } from 'vitest';
import { BUILTIN_DEFAULTS } from './builtin-defaults';
import { projectPreferences } from './preferences-projection';

describe('projectPreferences', () => {
  it('exposes only the allowlisted keys', () => {
    const state = projectPreferences(
      { values: { ...BUILTIN_DEFAULTS, shell: '/bin/zsh', apiBase: 'x' }, warnings: [] },
      () => 'defaults',
    );
    expect(Object.keys(state).sort()).toEqual(['defaultModel', 'defaultThinkingLevel', 'theme', 'warnings']);
  });

  it('falls back to the built-in default for a value of the wrong shape and warns about its layer', () => {
    const state = projectPreferences(
      { values: { ...BUILTIN_DEFAULTS, defaultThinkingLevel: 'max' }, warnings: [] },
      () => 'project',
    );
    expect(state.defaultThinkingLevel).toBe(BUILTIN_DEFAULTS.defaultThinkingLevel);
    expect(state.warnings).toEqual([
      { layer: 'project', message: expect.stringContaining('"defaultThinkingLevel" is ignored') },
    ]);
  });

  it('keeps the warnings of broken layers', () => {
    const warnings = [{ layer: 'user' as const, message: 'the user settings.json is not valid JSON' }];
    expect(projectPreferences({ values: { ...BUILTIN_DEFAULTS }, warnings }, () => 'defaults').warnings).toEqual(
      warnings,
    );
  });
});
