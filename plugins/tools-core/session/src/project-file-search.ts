import type { ProjectFile, ProjectFileSearch } from '@pi/tools-core';
import { PROJECT_FILE_LIMITS } from '@pi/tools-core';
import { walkBreadthFirst } from './file-walk';
import { compareMatches, matchPath, type PathMatch } from './fuzzy-path-match';
import { resolveInside } from './workspace-paths';

/**
 * Directories a completion never walks into, even where no `.gitignore` says so: nobody completes into them. (The walk
 * itself never lists `.git`.)
 */
const NEVER_WALKED: ReadonlySet<string> = new Set(['node_modules']);

export interface ProjectFileSearchOptions {
  readonly signal?: AbortSignal | undefined;
  /** The bounds of one walk; PROJECT_FILE_LIMITS by default. */
  readonly maxEntries?: number;
  readonly maxWalkMs?: number;
  readonly now?: () => number;
}

/**
 * The `ProjectFiles.search` of a working directory: walks it breadth first (honouring `.gitignore`, skipping `.git`
 * and `node_modules`, never following a symbolic link), keeps what matches `query`, and returns the best `limit`. The
 * walk stops at `maxEntries` entries or after `maxWalkMs` and then says it was `truncated`.
 */
export async function searchProjectFiles(
  cwd: string,
  query: string,
  limit: number,
  options: ProjectFileSearchOptions = {},
): Promise<ProjectFileSearch> {
  const inside = await resolveInside(cwd, '.');
  if (inside.isErr()) return { matches: [], truncated: false };
  const now = options.now ?? (() => performance.now());
  const deadline = now() + (options.maxWalkMs ?? PROJECT_FILE_LIMITS.maxWalkMs);
  const maxEntries = options.maxEntries ?? PROJECT_FILE_LIMITS.maxEntriesWalked;
  const found: Array<{ path: string; isDirectory: boolean; match: PathMatch }> = [];
  let walked = 0;
  let truncated = false;
  const walk = walkBreadthFirst({ root: inside.value.root, skip: NEVER_WALKED, signal: options.signal });
  for await (const entry of walk) {
    if (walked >= maxEntries || now() > deadline || options.signal?.aborted === true) {
      truncated = true;
      break;
    }
    walked += 1;
    const match = matchPath(entry.path, query);
    if (match !== undefined) found.push({ path: entry.path, isDirectory: entry.isDirectory, match });
  }
  if (options.signal?.aborted === true) truncated = true;
  const matches: ProjectFile[] = found
    .sort(compareMatches)
    .slice(0, limit)
    .map(({ path, isDirectory }) => ({ path, isDirectory }));
  return { matches, truncated };
}
