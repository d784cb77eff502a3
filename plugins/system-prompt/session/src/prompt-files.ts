import { readFile, stat } from 'node:fs/promises';
import { dirname, join, parse } from 'node:path';
import { displayPath } from '@pi/plugin-api';
import { MAX_PROMPT_FILE_BYTES, MAX_PROMPT_WARNING_LENGTH, type PromptFile } from '@pi/system-prompt';

/** A file the prompt carries, with its text. */
export interface LoadedPromptFile extends PromptFile {
  readonly text: string;
}

/** Everything the system prompt is built from that lives in files. */
export interface PromptFiles {
  readonly contextFiles: readonly LoadedPromptFile[];
  readonly customPrompt: LoadedPromptFile | null;
  readonly appendedPrompt: LoadedPromptFile | null;
  readonly warnings: readonly string[];
}

export interface PromptFileLocations {
  /** The user's pi config directory (global `AGENTS.md`, `SYSTEM.md`, `APPEND_SYSTEM.md`). */
  readonly configDir: string;
  /** The session's working directory. */
  readonly cwd: string;
  /** Shown as `~` in display paths. */
  readonly homeDir: string;
  /** False skips the context files (the prompt files are still read). */
  readonly contextFiles: boolean;
}

/** Per directory, the first of these that exists is its context file: `AGENTS.md` is the shared convention. */
export const CONTEXT_FILE_NAMES = ['AGENTS.md', 'CLAUDE.md'] as const;

/**
 * The directories whose context file is sent, in order: the config directory, then every directory from the top
 * of the file system down to `cwd` (so the nearest, most specific instructions come last). Each appears once.
 */
export function contextDirectories(configDir: string, cwd: string): string[] {
  const ancestors: string[] = [];
  for (let directory = cwd; ; directory = dirname(directory)) {
    ancestors.unshift(directory);
    if (directory === parse(directory).root) break;
  }
  return [...new Set([configDir, ...ancestors])];
}

/** Reads the context files and the project's or user's `SYSTEM.md` and `APPEND_SYSTEM.md`. Never rejects. */
export async function readPromptFiles(locations: PromptFileLocations): Promise<PromptFiles> {
  const warnings: string[] = [];
  const load = (candidates: readonly string[]) => firstReadable(candidates, locations, warnings);
  const contextFiles: LoadedPromptFile[] = [];
  if (locations.contextFiles) {
    for (const directory of contextDirectories(locations.configDir, locations.cwd)) {
      const file = await load(CONTEXT_FILE_NAMES.map((name) => join(directory, name)));
      if (file !== null) contextFiles.push(file);
    }
  }
  const projectOrUser = (name: string) => [join(locations.cwd, '.pi', name), join(locations.configDir, name)];
  const customPrompt = await load(projectOrUser('SYSTEM.md'));
  const appendedPrompt = await load(projectOrUser('APPEND_SYSTEM.md'));
  return { contextFiles, customPrompt, appendedPrompt, warnings };
}

/**
 * The first candidate that is a file, read, or null. A candidate that exists but cannot be used (unreadable, too
 * large, not UTF-8 text) is skipped with a warning, and the search goes on: a broken `AGENTS.md` does not hide the
 * directory's `CLAUDE.md`.
 */
async function firstReadable(
  candidates: readonly string[],
  locations: PromptFileLocations,
  warnings: string[],
): Promise<LoadedPromptFile | null> {
  for (const path of candidates) {
    const display = displayPath(path, locations);
    const skip = (why: string) => warnings.push(`${display} is not used: ${why}`.slice(0, MAX_PROMPT_WARNING_LENGTH));
    let size: number;
    try {
      const info = await stat(path);
      if (!info.isFile()) continue;
      size = info.size;
    } catch (error) {
      if (isMissing(error)) continue;
      skip(reasonOf(error));
      continue;
    }
    if (size > MAX_PROMPT_FILE_BYTES) {
      skip(`it is ${Math.ceil(size / 1024)} KiB, over the ${MAX_PROMPT_FILE_BYTES / 1024} KiB limit`);
      continue;
    }
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(await readFile(path));
    } catch (error) {
      skip(error instanceof TypeError ? 'it is not UTF-8 text' : reasonOf(error));
      continue;
    }
    return { path, display, chars: text.length, text };
  }
  return null;
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (code ?? String(error));
}
