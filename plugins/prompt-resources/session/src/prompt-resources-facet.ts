import { homedir } from 'node:os';
import {
  BACKGROUND_CONTEXT,
  Diagnostics,
  type CodingAgentSessionPluginContext,
  type SessionFacet,
} from '@pi/plugin-api';
import {
  EMPTY_PROMPT_RESOURCES_STATUS,
  PromptResources,
  type PromptResourcesStatus,
  type PromptTemplateInfo,
  type SkillInfo,
} from '@pi/prompt-resources';
import { expandLine } from './expand-line';
import { installedPackageDirectories, type PackagePaths } from './package-directories';
import { skillDirectories, templateDirectories, type PackageResourceDirectories } from './resource-locations';
import { loadSkills, type LoadedSkill } from './skill-files';
import { skillsSection } from './skills-section';
import { loadTemplates, type LoadedTemplate } from './template-files';

/** The tool the model loads a skill with: skills are listed only to a model that has it. */
export const READ_TOOL = 'read';

export interface PromptResourcesFacetOptions {
  /** Shown as `~` in display paths, and where the walk up for `.agents/skills` stops. */
  readonly homeDir?: string;
  /**
   * The skills and prompts directories of installed packages (their `pi` metadata's `skills` and `prompts`); by
   * default those of the packages `pi install` put in the user's and the project's scope.
   */
  readonly packageDirectories?: (paths: PackagePaths) => Promise<readonly PackageResourceDirectories[]>;
}

/**
 * The session facet of @pi/prompt-resources: reads the skills and prompt templates once, when it sets up (a rebuild
 * of the plugins sets it up again, and so reads them again); lists the skills to the model through
 * `before_model_request`; serves `PromptResources` (the list, and `expand` for `/skill:name` and `/template`).
 */
export function createPromptResourcesFacet(options: PromptResourcesFacetOptions = {}): SessionFacet {
  return (context) => setUpPromptResources(context, options);
}

async function setUpPromptResources(
  context: CodingAgentSessionPluginContext,
  options: PromptResourcesFacetOptions,
): Promise<void> {
  const homeDir = options.homeDir ?? homedir();
  const locations = {
    configDir: context.paths.configDir,
    cwd: context.paths.cwd,
    homeDir,
    packages: await (options.packageDirectories ?? installedPackageDirectories)(context.paths),
  };
  const roots = { cwd: context.paths.cwd, homeDir };
  const [skills, templates] = await Promise.all([
    loadSkills(skillDirectories(locations), roots),
    loadTemplates(templateDirectories(locations), roots),
  ]);
  const resources = {
    skills: new Map(skills.skills.map((skill) => [skill.name, skill])),
    templates: new Map(templates.templates.map((template) => [template.name, template])),
  };
  const problems = [...skills.problems, ...templates.problems];
  // A reload reads the same broken file again: one listed already is not counted twice.
  const listed = new Set(
    context
      .tryUse(Diagnostics)
      ?.state.value.entries.filter((entry) => entry.source === context.pluginId)
      .map((entry) => entry.message),
  );
  for (const problem of problems) if (!listed.has(problem)) context.diagnostics.report('warning', problem);

  const status = context.remoteState<PromptResourcesStatus>(EMPTY_PROMPT_RESOURCES_STATUS);
  status.set(
    {
      loaded: true,
      skills: skills.skills.map(skillInfo),
      templates: templates.templates.map(templateInfo),
      problems,
    },
    BACKGROUND_CONTEXT,
  );
  context.provide(PromptResources, {
    status,
    async expand({ line }) {
      return expandLine(line, resources);
    },
  });
  const section = skillsSection(skills.skills);
  if (section !== '') {
    context.hook('beforeModelRequest', (request) => {
      if (!request.tools.includes(READ_TOOL)) return;
      return { systemPrompt: request.systemPrompt === '' ? section : `${request.systemPrompt}\n\n${section}` };
    });
  }
}

function skillInfo({ body: _, ...info }: LoadedSkill): SkillInfo {
  return info;
}

function templateInfo({ body: _, ...info }: LoadedTemplate): PromptTemplateInfo {
  return info;
}
