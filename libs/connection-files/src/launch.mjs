// How a pi program starts: from its bundle when that is current, else from its TypeScript sources through tsx.
// Plain JavaScript, because it runs before anything can load TypeScript.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Whether the bundle at `bundleUrl` (dist/apps/<app>/<program>.mjs, built by tools/app-bundle) is current: its
 * build-info.json lists every source file it was made of, relative to the workspace, and none of them is missing or
 * changed since it was built. `mtimes` (source file → its mtime, or null when it is missing) lets the bundles of
 * several apps, which share most of their sources, stat each file once.
 */
export async function isBundleCurrent(bundleUrl, mtimes = new Map()) {
  const folder = dirname(fileURLToPath(bundleUrl));
  const workspace = join(folder, '..', '..', '..');
  // Synchronous on purpose: nothing else runs yet, and ~800 promised stats cost a start ~70 ms of CPU, these ~20.
  try {
    const info = JSON.parse(readFileSync(join(folder, 'build-info.json'), 'utf8'));
    if (!Array.isArray(info.inputs) || typeof info.builtAt !== 'number') return false;
    return info.inputs.every((input) => {
      let mtime = mtimes.get(input);
      if (mtime === undefined) {
        mtime = statSync(join(workspace, input), { throwIfNoEntry: false })?.mtimeMs ?? null;
        mtimes.set(input, mtime);
      }
      return mtime !== null && mtime <= info.builtAt;
    });
  } catch {
    return false;
  }
}

/** The variable that names a folder of bundles made current for a test run (see `isBundleVouchedFor`). */
export const CURRENT_BUNDLES_VARIABLE = 'PI_CURRENT_BUNDLES';

/**
 * Whether `PI_CURRENT_BUNDLES` vouches for the bundle at `bundleUrl`: it names the dist/apps folder the bundle is in,
 * whose bundles the test run made current before it started any program (the workspace's test check sets it), and
 * the bundle is there. A start it vouches for skips `isBundleCurrent`'s stat of every source file (~25 ms of CPU,
 * and a test run starts hundreds of programs); a source edited during the run is then not seen by the programs the
 * run starts later: a run tests what it bundled.
 */
export function isBundleVouchedFor(bundleUrl, env = process.env) {
  const vouched = env[CURRENT_BUNDLES_VARIABLE];
  if (vouched === undefined || vouched === '') return false;
  const bundle = fileURLToPath(bundleUrl);
  return resolve(vouched) === dirname(dirname(bundle)) && existsSync(bundle);
}

/**
 * Runs a program's bundle when it is current (a third of the start time, and no transpiling), else its sources with
 * tsx; `PI_FROM_SOURCE=1` always runs the sources. Both paths are relative to the program's bin file (`binUrl`).
 */
export async function launchProgram(binUrl, { bundle, source }) {
  const bundleUrl = new URL(bundle, binUrl);
  if (process.env.PI_FROM_SOURCE !== '1' && (isBundleVouchedFor(bundleUrl) || (await isBundleCurrent(bundleUrl)))) {
    await import(bundleUrl.href);
    return;
  }
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL(source, binUrl).href);
}
