import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { runGit, type GitCommandSettings } from './git-command';
import type { RepositoryLocation } from './read-repository';

/** The directories to watch, or why there is no such list: more than the limit, or git failed. */
export type DirectoryListing =
  | { readonly kind: 'listed'; readonly directories: string[] }
  | { readonly kind: 'too_many' }
  | { readonly kind: 'failed' };

/**
 * The working tree's directories that hold something git sees: tracked files, and untracked files and
 * directories that are not ignored (`ls-files --directory` names an untracked directory once, without its
 * contents, as `status` does). Ignored trees such as node_modules are never listed, so never watched.
 * Absolute paths, the top level first; at most `max`.
 */
export async function listWorkingTreeDirectories(
  settings: GitCommandSettings,
  location: RepositoryLocation,
  max: number,
  signal?: AbortSignal,
): Promise<DirectoryListing> {
  const directories = new Set<string>(['']);
  let tooMany = false;
  const listed = await runGit(
    { ...settings, cwd: location.topLevel },
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--directory', '--no-empty-directory'],
    {
      separator: 'nul',
      onRecord(path) {
        const untrackedDirectory = path.endsWith('/');
        let directory = untrackedDirectory ? path.slice(0, -1) : dirname(path);
        while (directory !== '.' && directory !== '' && !directories.has(directory)) {
          directories.add(directory);
          directory = dirname(directory);
        }
        if (directories.size > max) {
          tooMany = true;
          return 'too many directories';
        }
        return undefined;
      },
    },
    signal,
  );
  if (tooMany) return { kind: 'too_many' };
  if (listed.isErr()) return { kind: 'failed' };
  return { kind: 'listed', directories: [...directories].map((directory) => join(location.topLevel, directory)) };
}

/**
 * The git directories whose entries say what HEAD, the index and the refs are: the git directory, the common
 * directory, and every directory under `refs` (a branch `feature/x` lives in `refs/heads/feature`). Objects
 * and logs are left out: they change only together with one of these.
 */
export async function listGitDirectories(location: RepositoryLocation, max: number): Promise<string[] | 'too_many'> {
  const directories = [...new Set([location.gitDir, location.commonDir])];
  const pending = [join(location.commonDir, 'refs')];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    let entries: Dirent[];
    try {
      entries = await readdir(next, { withFileTypes: true });
    } catch {
      continue;
    }
    directories.push(next);
    if (directories.length > max) return 'too_many';
    for (const entry of entries) if (entry.isDirectory()) pending.push(join(next, entry.name));
  }
  return directories;
}
