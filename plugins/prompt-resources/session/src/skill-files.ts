import { basename, dirname, join } from 'node:path';
import { err, ok, type Result } from 'neverthrow';
import { displayPath, type DisplayRoots } from '@pi/plugin-api';
import {
  MAX_RESOURCE_PROBLEM_LENGTH,
  MAX_SKILL_DESCRIPTION_LENGTH,
  MAX_SKILL_NAME_LENGTH,
  type SkillInfo,
} from '@pi/prompt-resources';
import { splitFrontmatter } from './frontmatter';
import { readResourceFile, sortedEntries } from './resource-files';
import type { ResourceDirectory } from './resource-locations';

/** A skill with the instructions `/skill:name` sends (its file without the frontmatter). */
export interface LoadedSkill extends SkillInfo {
  readonly body: string;
}

export interface LoadedSkills {
  readonly skills: readonly LoadedSkill[];
  /** Files skipped and names overridden, each naming the file. */
  readonly problems: readonly string[];
}

/** The Agent Skills name rule: lowercase letters and digits in words joined by single hyphens. */
const SKILL_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * Reads `<directory>/<skill>/SKILL.md` of every directory, most preferred first: a skill whose name an earlier one
 * took is skipped with a problem naming both files; a file without usable frontmatter is skipped with a problem.
 */
export async function loadSkills(
  directories: readonly ResourceDirectory[],
  roots: DisplayRoots,
): Promise<LoadedSkills> {
  const skills = new Map<string, LoadedSkill>();
  const problems: string[] = [];
  const note = (display: string, why: string) =>
    problems.push(`${display}: ${why}`.slice(0, MAX_RESOURCE_PROBLEM_LENGTH));
  for (const directory of directories) {
    for (const entry of await sortedEntries(directory.path)) {
      const path = join(directory.path, entry, 'SKILL.md');
      const display = displayPath(path, roots);
      const read = await readResourceFile(path);
      if (read === null) continue;
      if (read.isErr()) {
        note(display, `skipped, ${read.error}`);
        continue;
      }
      const declared = skillOf(read.value, path);
      if (declared.isErr()) {
        note(display, `skipped, ${declared.error}`);
        continue;
      }
      const parsed = declared.value;
      const taken = skills.get(parsed.name);
      if (taken !== undefined) {
        note(display, `skipped, the skill "${parsed.name}" of ${taken.display} (${taken.source}) takes its name`);
        continue;
      }
      if (parsed.name !== basename(dirname(path))) {
        note(display, `its name "${parsed.name}" is not its directory's (${basename(dirname(path))}); loaded anyway`);
      }
      skills.set(parsed.name, { ...parsed, display, source: directory.source });
    }
  }
  return { skills: [...skills.values()], problems };
}

/** The skill a `SKILL.md` declares, or why it declares none. */
function skillOf(text: string, path: string): Result<Omit<LoadedSkill, 'display' | 'source'>, string> {
  const split = splitFrontmatter(text);
  if (split.isErr()) return err(split.error);
  const { frontmatter, body } = split.value;
  if (frontmatter === null) return err('it has no frontmatter (--- name: …, description: … ---)');
  const { name, description } = frontmatter;
  if (typeof name !== 'string' || name === '') return err('its frontmatter has no name');
  if (name.length > MAX_SKILL_NAME_LENGTH || !SKILL_NAME.test(name)) {
    return err(
      `its name "${name.slice(0, MAX_SKILL_NAME_LENGTH)}" is not lowercase letters, digits and single hyphens (at most ${MAX_SKILL_NAME_LENGTH})`,
    );
  }
  if (typeof description !== 'string' || description.trim() === '') return err('its frontmatter has no description');
  if (description.length > MAX_SKILL_DESCRIPTION_LENGTH) {
    return err(`its description is over ${MAX_SKILL_DESCRIPTION_LENGTH} characters`);
  }
  const modelInvocable = frontmatter['disable-model-invocation'] !== true;
  return ok({ name, description: description.trim(), path, modelInvocable, body: body.trim() });
}
