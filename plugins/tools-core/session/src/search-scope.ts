import { stat } from 'node:fs/promises';
import { err, ok, type Result } from 'neverthrow';
import { ioFailure, type ToolFailure } from './tool-failure';
import { resolveInside, type InsidePath } from './workspace-paths';

/** Where `find` or `grep` searches: a directory (walked) or, for `grep`, a single file. */
export interface SearchScope extends InsidePath {
  readonly isDirectory: boolean;
  /** Relative to the root, `''` for the root itself (the walker's `start`). */
  readonly start: string;
}

export async function searchScope(
  cwd: string,
  requested: string | undefined,
): Promise<Result<SearchScope, ToolFailure>> {
  const resolved = await resolveInside(cwd, requested ?? '.');
  if (resolved.isErr()) return err(resolved.error);
  const inside = resolved.value;
  try {
    const isDirectory = (await stat(inside.absolute)).isDirectory();
    return ok({ ...inside, isDirectory, start: inside.display === '.' ? '' : inside.display });
  } catch (error) {
    return err(ioFailure('search', inside.display, error));
  }
}
