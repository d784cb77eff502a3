/**
 * Whether the app bundle at this URL is current: no source file it was made of is missing or changed since. `mtimes`
 * caches what was stat'ed (a file's mtime, null when it is missing) across the bundles of several apps.
 */
export function isBundleCurrent(bundleUrl: URL | string, mtimes?: Map<string, number | null>): Promise<boolean>;

/** Runs a program's bundle when it is current, else its TypeScript sources through tsx (`PI_FROM_SOURCE=1`: always). */
export function launchProgram(
  binUrl: string,
  paths: { readonly bundle: string; readonly source: string },
): Promise<void>;
