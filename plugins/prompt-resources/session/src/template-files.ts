import { basename, extname, join } from 'node:path';
import { displayPath, type DisplayRoots } from '@pi/plugin-api';
import {
  MAX_RESOURCE_PROBLEM_LENGTH,
  MAX_SKILL_DESCRIPTION_LENGTH,
  type PromptTemplateInfo,
} from '@pi/prompt-resources';
import { splitFrontmatter } from './frontmatter';
import { hasPlaceholders } from './template-arguments';
import { readResourceFile, sortedEntries } from './resource-files';
import type { ResourceDirectory } from './resource-locations';

/** A template with its text (the file without the frontmatter). */
export interface LoadedTemplate extends PromptTemplateInfo {
  readonly body: string;
}

export interface LoadedTemplates {
  readonly templates: readonly LoadedTemplate[];
  readonly problems: readonly string[];
}

/** What can be typed as a slash command (the TUI's rule): a letter, then letters, digits, `_` and `-`. */
const COMMAND_NAME = /^[a-z][\w-]*$/i;
/** The description shown beside a template in the `/` menu is cut here when it is the file's first line. */
const FIRST_LINE_DESCRIPTION = 80;

/**
 * Reads every `<directory>/*.md`, most preferred first: a name an earlier directory took is skipped with a problem
 * naming both files; a file whose name is no command name, or whose frontmatter is broken, is skipped with a problem.
 */
export async function loadTemplates(
  directories: readonly ResourceDirectory[],
  roots: DisplayRoots,
): Promise<LoadedTemplates> {
  const templates = new Map<string, LoadedTemplate>();
  const problems: string[] = [];
  const note = (display: string, why: string) =>
    problems.push(`${display}: ${why}`.slice(0, MAX_RESOURCE_PROBLEM_LENGTH));
  for (const directory of directories) {
    for (const entry of await sortedEntries(directory.path)) {
      if (extname(entry) !== '.md') continue;
      const path = join(directory.path, entry);
      const display = displayPath(path, roots);
      const name = basename(entry, '.md');
      const read = await readResourceFile(path);
      if (read === null) continue;
      if (!COMMAND_NAME.test(name)) {
        note(display, `skipped, "${name}" cannot be typed as /${name} (a letter, then letters, digits, _ or -)`);
        continue;
      }
      if (read.isErr()) {
        note(display, `skipped, ${read.error}`);
        continue;
      }
      const split = splitFrontmatter(read.value);
      if (split.isErr()) {
        note(display, `skipped, ${split.error}`);
        continue;
      }
      const taken = templates.get(name);
      if (taken !== undefined) {
        note(display, `skipped, the template /${name} of ${taken.display} (${taken.source}) takes its name`);
        continue;
      }
      const { frontmatter, body } = split.value;
      templates.set(name, {
        name,
        description: descriptionOf(frontmatter?.['description'], body),
        argumentHint: stringOr(frontmatter?.['argument-hint'], '').slice(0, 255),
        takesArguments: hasPlaceholders(body),
        path,
        display,
        source: directory.source,
        body: body.trim(),
      });
    }
  }
  return { templates: [...templates.values()], problems };
}

function descriptionOf(declared: unknown, body: string): string {
  if (typeof declared === 'string' && declared.trim() !== '')
    return declared.trim().slice(0, MAX_SKILL_DESCRIPTION_LENGTH);
  const first =
    body
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.trim() ?? '';
  return first.length > FIRST_LINE_DESCRIPTION ? `${first.slice(0, FIRST_LINE_DESCRIPTION - 1)}…` : first;
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value.trim() : fallback;
}
