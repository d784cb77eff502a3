import { lstat, readlink, realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { err, ok, type Result } from 'neverthrow';
import { ioFailure, toolFailure, type ToolFailure } from './tool-failure';

/** A path a tool may touch: inside the session's working directory, with symlinks of its existing part resolved. */
export interface InsidePath {
  /** The real absolute path to use for I/O. */
  readonly absolute: string;
  /** Relative to the working directory, `/`-separated, `.` for the directory itself: what results show. */
  readonly display: string;
  /** The real working directory. */
  readonly root: string;
}

// Symlink chains longer than this are refused (Linux itself stops at 40).
const MAX_LINK_HOPS = 40;

/**
 * Resolves a path the model gave against the session's working directory `cwd` and refuses it unless it stays
 * inside: a relative path is taken from `cwd`; `..` that climbs out, an absolute path elsewhere, `~`, and a path
 * reaching outside through a symlink (of any existing component, the file itself included, dangling or not) are
 * `outside_workspace`. What does not exist yet (a file `write` creates) is resolved through its nearest existing
 * ancestor. This guards the file tools against mistakes and confusion; it is not a sandbox (`bash` runs anything).
 */
export async function resolveInside(cwd: string, asked: string): Promise<Result<InsidePath, ToolFailure>> {
  if (asked.includes('\0')) return err(toolFailure('invalid_argument', 'A path cannot contain a NUL character.'));
  const requested = await withoutMention(cwd, asked);
  let root: string;
  try {
    root = await realpath(cwd);
  } catch (error) {
    return err(ioFailure('open the working directory', cwd, error));
  }
  const expanded = requested === '~' || requested.startsWith('~/') ? join(homedir(), requested.slice(1)) : requested;
  const lexical = resolve(cwd, expanded);
  // The working directory may itself be reached through a symlink: accept either spelling of it.
  const candidate = isWithin(cwd, lexical) ? join(root, relative(cwd, lexical)) : lexical;
  if (!isWithin(root, candidate)) return err(outside(requested));
  const real = await realExisting(candidate, 0);
  if (real.isErr()) return err(real.error === 'outside' ? outside(requested) : real.error);
  if (!isWithin(root, real.value)) return err(outside(requested));
  return ok({ absolute: real.value, display: displayPath(root, real.value), root });
}

/**
 * A file mention as the TUI's `@` completion writes it into a prompt (`@src/app.ts`, `@"my notes.md"`), passed on
 * by the model as typed: when nothing is named so but the path without the mark exists, that path is meant. Either
 * spelling then goes through the same checks.
 */
async function withoutMention(cwd: string, requested: string): Promise<string> {
  const bare = requested.replace(/^@"(.+)"$/u, '$1').replace(/^@(?=.)/u, '');
  if (bare === requested || (await exists(resolve(cwd, requested)))) return requested;
  return (await exists(resolve(cwd, bare))) ? bare : requested;
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** `path` relative to `root`, `/`-separated, `.` for the root itself. */
export function displayPath(root: string, path: string): string {
  const rel = relative(root, path);
  return rel === '' ? '.' : rel.split(sep).join('/');
}

export function isWithin(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

function outside(requested: string): ToolFailure {
  return toolFailure(
    'outside_workspace',
    `Refused: ${requested} is outside the working directory. Tools only touch files inside it; use a path relative to it.`,
    null,
  );
}

/**
 * The real path of `path`: its nearest existing ancestor with symlinks resolved, plus the components that do not
 * exist yet. A dangling symlink is followed to where it points (which must then be checked like any other path).
 */
async function realExisting(path: string, hops: number): Promise<Result<string, ToolFailure | 'outside'>> {
  if (hops > MAX_LINK_HOPS) return err(toolFailure('io_error', `Too many levels of symbolic links in ${path}.`));
  const missing: string[] = [];
  let existing = path;
  for (;;) {
    try {
      const stats = await lstat(existing);
      if (stats.isSymbolicLink()) {
        try {
          return ok(join(await realpath(existing), ...missing));
        } catch {
          // Dangling: resolve what it points at, as `write` through it would create that file.
          const target = resolve(dirname(existing), await readlink(existing));
          return (await realExisting(target, hops + 1)).map((real) => join(real, ...missing));
        }
      }
      return ok(join(await realpath(existing), ...missing));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') return err(ioFailure('resolve', path, error));
      const parent = dirname(existing);
      if (parent === existing) return err('outside');
      missing.unshift(relative(parent, existing));
      existing = parent;
    }
  }
}
