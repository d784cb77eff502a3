import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** The `.gitignore` files in force at a directory: one level per directory that has one, deepest last. */
export type GitignoreRules = readonly { readonly directory: string; readonly rules: Ignore }[];

export const NO_RULES: GitignoreRules = [];

/**
 * The rules with `directory`'s own `.gitignore` added (`directory` relative to the root, `''` for the root).
 * A missing or unreadable file adds nothing.
 */
export async function withGitignoreOf(rules: GitignoreRules, root: string, directory: string): Promise<GitignoreRules> {
  let text: string;
  try {
    text = await readFile(join(root, directory, '.gitignore'), 'utf8');
  } catch {
    return rules;
  }
  return [...rules, { directory, rules: ignore().add(text) }];
}

/**
 * Whether git would ignore `path` (relative to the root, `/`-separated): the deepest `.gitignore` with an
 * opinion decides, so a nested file's `!pattern` re-includes what a parent's excluded. Patterns apply relative
 * to the directory of their file, and a directory pattern (`build/`) matches directories only.
 */
export function isIgnored(rules: GitignoreRules, path: string, isDirectory: boolean): boolean {
  for (const { directory, rules: ignoreRules } of [...rules].reverse()) {
    const prefix = directory === '' ? '' : `${directory}/`;
    if (!path.startsWith(prefix) || path === directory) continue;
    const local = path.slice(prefix.length) + (isDirectory ? '/' : '');
    const verdict = ignoreRules.test(local);
    if (verdict.ignored) return true;
    if (verdict.unignored) return false;
  }
  return false;
}
