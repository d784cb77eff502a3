import type { PromptResourcesStatus, PromptTemplateInfo, SkillInfo } from '@pi/prompt-resources';
import { SKILL_COMMAND_PREFIX } from '@pi/prompt-resources';

/** A slash command a skill or template becomes: what the `/` menu and `/help` show of it. */
export interface ResourceCommand {
  readonly id: string;
  readonly slash: string;
  readonly description: string;
  readonly arguments?: { readonly hint: string; readonly required: boolean };
  /** Where it came from, for a notice when its name is taken. */
  readonly display: string;
}

/** The commands of what the session loaded: `/skill:name` per skill, `/name` per template. */
export function resourceCommands(status: PromptResourcesStatus): ResourceCommand[] {
  return [...status.skills.map(skillCommand), ...status.templates.map(templateCommand)];
}

function skillCommand(skill: SkillInfo): ResourceCommand {
  return {
    id: `prompt-resources.skill.${skill.name}`,
    slash: `${SKILL_COMMAND_PREFIX}${skill.name}`,
    description: `Skill: ${skill.description}`,
    arguments: { hint: '[request]', required: false },
    display: skill.display,
  };
}

function templateCommand(template: PromptTemplateInfo): ResourceCommand {
  const hint = template.argumentHint !== '' ? template.argumentHint : template.takesArguments ? '[args]' : '';
  return {
    id: `prompt-resources.template.${template.name}`,
    slash: template.name,
    description: template.description === '' ? `Prompt template ${template.display}` : template.description,
    ...(hint === '' ? {} : { arguments: { hint, required: template.takesArguments } }),
    display: template.display,
  };
}
