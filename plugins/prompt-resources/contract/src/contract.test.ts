import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkApiVersion, pluginMetadataSchema } from '@pi/plugin-api';
import { PROMPT_RESOURCES_PLUGIN_ID } from './plugin';
import {
  EMPTY_PROMPT_RESOURCES_STATUS,
  MAX_SKILL_NAME_LENGTH,
  PromptResources,
  expandRequestSchema,
  promptResourcesStatusSchema,
  type SkillInfo,
} from './prompt-resources-service';

const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

const skill: SkillInfo = {
  name: 'pdf-tools',
  description: 'Extract text from PDF files',
  path: '/p/.pi/skills/pdf-tools/SKILL.md',
  display: '.pi/skills/pdf-tools/SKILL.md',
  source: 'project',
  modelInvocable: true,
};

describe('@pi/prompt-resources contract', () => {
  it('is named by its plugin id and carries plugin metadata this pi accepts', () => {
    expect(packageJson.name).toBe(PROMPT_RESOURCES_PLUGIN_ID);
    const metadata = pluginMetadataSchema.parse(packageJson.pi);
    expect(checkApiVersion(metadata.apiVersion).isOk()).toBe(true);
    for (const [host, facetPackage] of Object.entries(metadata.facets)) {
      expect(facetPackage, `the ${host} facet`).toBe(`${PROMPT_RESOURCES_PLUGIN_ID}-${host}`);
    }
  });

  it('exposes expand and the status cell', () => {
    expect(PromptResources.id).toBe('prompt-resources');
    expect(Object.keys(PromptResources.exposure.methods)).toEqual(['expand']);
    expect(Object.keys(PromptResources.exposure.state)).toEqual(['status']);
  });

  it('accepts the empty status and a listed skill, and refuses an overlong name or an unknown source', () => {
    expect(promptResourcesStatusSchema.safeParse(EMPTY_PROMPT_RESOURCES_STATUS).success).toBe(true);
    const status = { ...EMPTY_PROMPT_RESOURCES_STATUS, skills: [skill] };
    expect(promptResourcesStatusSchema.safeParse(status).success).toBe(true);
    const long = { ...status, skills: [{ ...skill, name: 'a'.repeat(MAX_SKILL_NAME_LENGTH + 1) }] };
    expect(promptResourcesStatusSchema.safeParse(long).success).toBe(false);
    const foreign = { ...status, skills: [{ ...skill, source: 'elsewhere' }] };
    expect(promptResourcesStatusSchema.safeParse(foreign).success).toBe(false);
  });

  it('refuses an empty line to expand', () => {
    expect(expandRequestSchema.safeParse({ line: '/review' }).success).toBe(true);
    expect(expandRequestSchema.safeParse({ line: '' }).success).toBe(false);
  });
});
