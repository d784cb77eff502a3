import { join } from 'node:path';

/**
 * Where a host's plugins come from, in load order: the base (the built-in manifest, or the `--manifest` file in
 * its place), then the user's global plugins, then the project's. The coordinator loads no project scope.
 */
export type PluginScope = 'builtin' | 'manifest' | 'global' | 'project';

/** The files of one scope the user manages: its manifest, and the npm prefix `pi install` installs packages into. */
export interface ScopeFiles {
  readonly scope: 'global' | 'project';
  /** `{ "plugins": [...] }`, the manifest format; absent means the scope adds nothing. */
  readonly manifest: string;
  /** An npm prefix folder: its package.json lists the installed packages, its node_modules holds them. */
  readonly packages: string;
}

/** The user's scope: `<configDir>/plugins.json` and `<configDir>/packages`, beside settings.json and themes/. */
export function globalScopeFiles(configDir: string): ScopeFiles {
  return { scope: 'global', manifest: join(configDir, 'plugins.json'), packages: join(configDir, 'packages') };
}

/** A project's scope: `<project>/.pi/plugins.json` and `<project>/.pi/packages`, beside `.pi/settings.json`. */
export function projectScopeFiles(project: string): ScopeFiles {
  const folder = join(project, '.pi');
  return { scope: 'project', manifest: join(folder, 'plugins.json'), packages: join(folder, 'packages') };
}
