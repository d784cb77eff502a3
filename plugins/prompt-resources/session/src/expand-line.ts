import type { ExpandedPrompt } from '@pi/prompt-resources';
import type { LoadedSkill } from './skill-files';
import { parseSlashLine } from './slash-line';
import { applyArguments } from './template-arguments';
import type { LoadedTemplate } from './template-files';

/** What a session has loaded, by name. */
export interface LoadedResources {
  readonly skills: ReadonlyMap<string, LoadedSkill>;
  readonly templates: ReadonlyMap<string, LoadedTemplate>;
}

/** The prompt `/skill:name args` or `/template args` stands for; null when the line names neither. */
export function expandLine(line: string, resources: LoadedResources): ExpandedPrompt | null {
  const slash = parseSlashLine(line);
  if (slash === null) return null;
  if (slash.kind === 'skill') {
    const skill = resources.skills.get(slash.name);
    return skill === undefined ? null : { kind: 'skill', name: skill.name, text: skillPrompt(skill, slash.args) };
  }
  const template = resources.templates.get(slash.name);
  if (template === undefined) return null;
  return { kind: 'template', name: template.name, text: applyArguments(template.body, slash.args) };
}

/**
 * The skill's instructions as the user's message: in a `<skill>` block naming its file (its relative paths are
 * relative to that file's directory), then what the user typed after the command.
 */
export function skillPrompt(skill: LoadedSkill, args: string): string {
  const block = [
    `<skill name="${skill.name}" location="${skill.path}">`,
    'Paths in this skill are relative to the directory of its location.',
    '',
    skill.body,
    '</skill>',
  ].join('\n');
  return args === '' ? block : `${block}\n\n${args}`;
}
