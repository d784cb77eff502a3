import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkApiVersion, pluginMetadataSchema } from '@pi/plugin-api';
import { SYSTEM_PROMPT_PLUGIN_ID } from './plugin';
import {
  EMPTY_SYSTEM_PROMPT_STATUS,
  MAX_PROMPT_WARNING_LENGTH,
  SystemPrompt,
  systemPromptStatusSchema,
} from './system-prompt-service';

const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

describe('@pi/system-prompt contract', () => {
  it('is named by its plugin id and carries plugin metadata this pi accepts', () => {
    expect(packageJson.name).toBe(SYSTEM_PROMPT_PLUGIN_ID);
    const metadata = pluginMetadataSchema.parse(packageJson.pi);
    expect(checkApiVersion(metadata.apiVersion).isOk()).toBe(true);
    for (const [host, facetPackage] of Object.entries(metadata.facets)) {
      expect(facetPackage, `the ${host} facet`).toBe(`${SYSTEM_PROMPT_PLUGIN_ID}-${host}`);
    }
  });

  it('exposes text, reload and the status cell', () => {
    expect(SystemPrompt.id).toBe('system-prompt');
    expect(Object.keys(SystemPrompt.exposure.methods).sort()).toEqual(['reload', 'text']);
    expect(Object.keys(SystemPrompt.exposure.state)).toEqual(['status']);
  });

  it('accepts the empty status and refuses a status with a missing field or an overlong warning', () => {
    expect(systemPromptStatusSchema.safeParse(EMPTY_SYSTEM_PROMPT_STATUS).success).toBe(true);
    const { warnings: _, ...withoutWarnings } = EMPTY_SYSTEM_PROMPT_STATUS;
    expect(systemPromptStatusSchema.safeParse(withoutWarnings).success).toBe(false);
    const long = { ...EMPTY_SYSTEM_PROMPT_STATUS, warnings: ['x'.repeat(MAX_PROMPT_WARNING_LENGTH + 1)] };
    expect(systemPromptStatusSchema.safeParse(long).success).toBe(false);
    const file = { path: '/p/AGENTS.md', display: 'AGENTS.md', chars: -1 };
    expect(systemPromptStatusSchema.safeParse({ ...EMPTY_SYSTEM_PROMPT_STATUS, contextFiles: [file] }).success).toBe(
      false,
    );
  });
});
