// Which app bundles are stale, and building them: plain JavaScript, because it runs before anything can load
// TypeScript (npm start, the bundle target).
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isBundleCurrent } from '@pi/connection-files/launch';

export const WORKSPACE = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const PROGRAMS = { session: 'pi-session', tui: 'pi-tui', coordinator: 'pi-coordinator', cli: 'pi' };

/** The URL of an app's bundled program, dist/apps/<app>/<program>.mjs. */
export function bundleUrl(app) {
  return pathToFileURL(join(WORKSPACE, 'dist', 'apps', app, `${PROGRAMS[app]}.mjs`));
}

/**
 * Makes sure dist/apps holds current bundles of every app, rebuilding only what is stale: a bundle is stale when it
 * is missing or any source file it was made of changed after it was built. Checking costs a few stats per source
 * file, so a start pays for a build only after a change.
 */
export async function ensureCurrentBundles() {
  const stale = [];
  // The apps share most of their sources: each file is stat'ed once.
  const mtimes = new Map();
  for (const app of Object.keys(PROGRAMS)) if (!(await isBundleCurrent(bundleUrl(app), mtimes))) stale.push(app);
  if (stale.length === 0) return;
  // The first start (or the first after a change) builds for a while: say so, rather than sit silent.
  if (process.stderr.isTTY)
    process.stderr.write(`pi: building ${stale.join(', ')} (first start, or sources changed)…\n`);
  const { register } = await import('tsx/esm/api');
  const unregister = register();
  const { buildApps } = await import('./build-apps.ts');
  await buildApps(stale);
  await unregister();
}
