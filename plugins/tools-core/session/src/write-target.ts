import { stat } from 'node:fs/promises';
import { err, ok, type Result } from 'neverthrow';
import { ioFailure, toolFailure, type ToolFailure } from './tool-failure';
import { resolveInside, type InsidePath } from './workspace-paths';

/**
 * Where a `write` would go, if it can go there: inside the working directory, and not a directory (nor under a
 * file). A file that does not exist yet is fine. Both `write` and its preflight run this, so the user is never
 * asked to allow a write that would be refused.
 */
export async function writeTarget(cwd: string, path: string): Promise<Result<InsidePath, ToolFailure>> {
  const resolved = await resolveInside(cwd, path);
  if (resolved.isErr()) return resolved;
  const { absolute, display } = resolved.value;
  try {
    if ((await stat(absolute)).isDirectory()) {
      return err(toolFailure('not_a_file', `${display} is a directory, not a file.`, display));
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return err(ioFailure('write', display, error));
  }
  return ok(resolved.value);
}
