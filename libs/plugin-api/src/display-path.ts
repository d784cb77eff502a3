import { relative, sep } from 'node:path';

/** The folders a path is shown relative to: the session's directory, then the user's home. */
export interface DisplayRoots {
  readonly cwd: string;
  readonly homeDir: string;
}

/**
 * A file's path as pi shows it to people (in prompts, lists and problems): relative to the session's directory inside
 * it, `~/…` under the home directory, absolute elsewhere. One rule for every plugin, so a file reads the same wherever
 * it is named.
 */
export function displayPath(path: string, roots: DisplayRoots): string {
  const inside = (root: string) => {
    const rest = relative(root, path);
    return rest !== '' && !rest.startsWith('..') && !rest.startsWith(sep) ? rest : null;
  };
  const fromCwd = inside(roots.cwd);
  if (fromCwd !== null) return fromCwd;
  const fromHome = inside(roots.homeDir);
  return fromHome === null ? path : `~${sep}${fromHome}`;
}
