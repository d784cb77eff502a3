import { packageResourceDirs } from '@pi/plugin-packages';
import type { PackageResourceDirectories } from './resource-locations';

/** Where packages are installed: the user's config dir (global) and the session's directory (`.pi/packages`). */
export interface PackagePaths {
  readonly configDir: string;
  readonly cwd: string;
}

/** The skills and prompts folders the packages `pi install` put in the global and the project scope carry. */
export async function installedPackageDirectories(paths: PackagePaths): Promise<PackageResourceDirectories[]> {
  const scopes = { configDir: paths.configDir, project: paths.cwd };
  const [skills, prompts] = await Promise.all([
    packageResourceDirs(scopes, 'skills'),
    packageResourceDirs(scopes, 'prompts'),
  ]);
  return [{ skills, prompts }];
}
