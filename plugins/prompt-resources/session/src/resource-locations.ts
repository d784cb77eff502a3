import { existsSync } from 'node:fs';
import { dirname, join, parse } from 'node:path';
import type { ResourceSource } from '@pi/prompt-resources';

/** A directory searched for skills or templates, and what it counts as. */
export interface ResourceDirectory {
  readonly path: string;
  readonly source: ResourceSource;
}

/** Skills and templates directories an installed package brings (its `pi` metadata's `skills` and `prompts`). */
export interface PackageResourceDirectories {
  readonly skills: readonly string[];
  readonly prompts: readonly string[];
}

export interface ResourceLocations {
  /** The user's pi config directory (`skills/`, `prompts/`). */
  readonly configDir: string;
  /** The session's working directory (`.pi/skills`, `.pi/prompts`, `.agents/skills` here and above). */
  readonly cwd: string;
  /** Where the walk up for `.agents/skills` stops when no repository root comes first. */
  readonly homeDir: string;
  /** Installed packages' directories; none until packages can carry them. */
  readonly packages: readonly PackageResourceDirectories[];
}

/**
 * The skills directories, most preferred first: the project's `.pi/skills`, then `.agents/skills` in the session's
 * directory and each parent up to the repository root (the first with `.git`) or the home directory, then the
 * user's `<config>/skills`, then packages'. The first skill of a name wins.
 */
export function skillDirectories(locations: ResourceLocations): ResourceDirectory[] {
  const project = [join(locations.cwd, '.pi', 'skills'), ...projectAncestors(locations).map(agentsSkills)];
  return [
    ...project.map((path) => ({ path, source: 'project' as const })),
    { path: join(locations.configDir, 'skills'), source: 'user' },
    ...locations.packages.flatMap((dirs) => dirs.skills.map((path) => ({ path, source: 'package' as const }))),
  ];
}

/** The templates directories, most preferred first: the project's `.pi/prompts`, the user's, packages'. */
export function templateDirectories(locations: ResourceLocations): ResourceDirectory[] {
  return [
    { path: join(locations.cwd, '.pi', 'prompts'), source: 'project' },
    { path: join(locations.configDir, 'prompts'), source: 'user' },
    ...locations.packages.flatMap((dirs) => dirs.prompts.map((path) => ({ path, source: 'package' as const }))),
  ];
}

/** The session's directory and its parents, nearest first, up to the repository root or the home directory. */
function projectAncestors(locations: ResourceLocations): string[] {
  const directories: string[] = [];
  for (let directory = locations.cwd; ; directory = dirname(directory)) {
    directories.push(directory);
    if (directory === locations.homeDir || existsSync(join(directory, '.git'))) break;
    if (directory === parse(directory).root) break;
  }
  return directories;
}

const agentsSkills = (directory: string) => join(directory, '.agents', 'skills');
