/**
 * Whether the app bundle at this URL is current: no source file it was made of is missing or changed since. `mtimes`
 * caches what was stat'ed (a file's mtime, null when it is missing) across the bundles of several apps.
 */
export function isBundleCurrent(bundleUrl: URL | string, mtimes?: Map<string, number | null>): Promise<boolean>;

/** The variable that names a folder of bundles made current for a test run (see `isBundleVouchedFor`). */
export const CURRENT_BUNDLES_VARIABLE: 'PI_CURRENT_BUNDLES';

/**
 * Whether `PI_CURRENT_BUNDLES` (in `env`, by default the process's) names the dist/apps folder of this bundle, which
 * exists: the test run made the bundles there current before it started any program, so no source needs a stat.
 */
export function isBundleVouchedFor(bundleUrl: URL | string, env?: NodeJS.ProcessEnv): boolean;

/**
 * Runs a program's bundle when it is current (or vouched for), else its TypeScript sources through tsx
 * (`PI_FROM_SOURCE=1`: always).
 */
export function launchProgram(
  binUrl: string,
  paths: { readonly bundle: string; readonly source: string },
): Promise<void>;
