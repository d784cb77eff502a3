import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { isIgnored, NO_RULES, withGitignoreOf, type GitignoreRules } from './gitignore-rules';

/** One entry found under the start directory. */
export interface WalkEntry {
  /** Relative to the root, `/`-separated. */
  readonly path: string;
  readonly absolute: string;
  readonly isDirectory: boolean;
  readonly isSymbolicLink: boolean;
}

export interface WalkOptions {
  /** The real working directory: `.gitignore` files apply from here down. */
  readonly root: string;
  /** Where to start, relative to the root (`''` for the root). */
  readonly start: string;
  readonly signal?: AbortSignal | undefined;
}

/**
 * Every entry under `start`, depth first, names in code-point order, skipping what `.gitignore` files (of the
 * root, the directories down to `start`, and each directory walked) ignore, and `.git` itself. An ignored
 * directory is never entered, so `node_modules` costs nothing. Symlinks are listed but never followed (no cycles,
 * no way out of the root). Unreadable directories are skipped. A walk explicitly started inside an ignored
 * directory lists it (the caller asked for it); rules inside it still apply.
 */
export async function* walkEntries(options: WalkOptions): AsyncGenerator<WalkEntry> {
  const rules = await rulesDownTo(options.root, options.start);
  yield* walkDirectory(options.root, options.start, rules, options.signal);
}

/**
 * Every entry under the root as `walkEntries` finds them, but breadth first (all of a directory's entries before any
 * deeper one), and never entering a directory named in `skip` either: a walk cut short has seen the shallow files.
 */
export async function* walkBreadthFirst(
  options: Omit<WalkOptions, 'start'> & { readonly skip: ReadonlySet<string> },
): AsyncGenerator<WalkEntry> {
  const queue: Array<{ directory: string; rules: GitignoreRules }> = [{ directory: '', rules: NO_RULES }];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    if (options.signal?.aborted === true) return;
    const listed = await listDirectory(options.root, next.directory, next.rules);
    for (const entry of listed.entries) {
      yield entry;
      const name = entry.path.slice(entry.path.lastIndexOf('/') + 1);
      if (entry.isDirectory && !options.skip.has(name)) queue.push({ directory: entry.path, rules: listed.rules });
    }
  }
}

async function rulesDownTo(root: string, start: string): Promise<GitignoreRules> {
  let rules = NO_RULES;
  const parts = start === '' ? [] : start.split('/');
  for (let depth = 0; depth < parts.length; depth += 1) {
    const directory = parts.slice(0, depth).join('/');
    rules = await withGitignoreOf(rules, root, directory);
    if (isIgnored(rules, parts.slice(0, depth + 1).join('/'), true)) return NO_RULES;
  }
  return rules;
}

async function* walkDirectory(
  root: string,
  directory: string,
  inherited: GitignoreRules,
  signal: AbortSignal | undefined,
): AsyncGenerator<WalkEntry> {
  if (signal?.aborted === true) return;
  const listed = await listDirectory(root, directory, inherited);
  for (const entry of listed.entries) {
    yield entry;
    if (entry.isDirectory) yield* walkDirectory(root, entry.path, listed.rules, signal);
  }
}

/**
 * A directory's entries that are neither ignored nor `.git`, in code-point order, and the rules in force inside it
 * (its own `.gitignore` added). An unreadable directory has no entries.
 */
async function listDirectory(
  root: string,
  directory: string,
  inherited: GitignoreRules,
): Promise<{ entries: WalkEntry[]; rules: GitignoreRules }> {
  const absolute = join(root, directory);
  let found;
  try {
    found = await readdir(absolute, { withFileTypes: true });
  } catch {
    return { entries: [], rules: inherited };
  }
  const rules = await withGitignoreOf(inherited, root, directory);
  found.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const entries: WalkEntry[] = [];
  for (const entry of found) {
    const path = directory === '' ? entry.name : `${directory}/${entry.name}`;
    const isDirectory = entry.isDirectory();
    if (isDirectory && entry.name === '.git') continue;
    if (isIgnored(rules, path, isDirectory)) continue;
    entries.push({ path, absolute: join(absolute, entry.name), isDirectory, isSymbolicLink: entry.isSymbolicLink() });
  }
  return { entries, rules };
}
