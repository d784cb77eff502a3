#!/usr/bin/env node
// Makes sure dist/apps holds current bundles of the apps, rebuilding only what is stale: a bundle is stale when
// it is missing or any source file it was made of changed after it was built. Checking costs a few stats, so
// `npm start` pays for a build only after a change.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isBundleCurrent } from '@pi/connection-files/launch';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const apps = { session: 'pi-session', tui: 'pi-tui', coordinator: 'pi-coordinator', cli: 'pi' };

const stale = [];
for (const [app, program] of Object.entries(apps)) {
  const bundle = pathToFileURL(join(root, 'dist', 'apps', app, `${program}.mjs`));
  if (!(await isBundleCurrent(bundle))) stale.push(app);
}
if (stale.length > 0) {
  // The first start (or the first after a change) builds for a while: say so, rather than sit silent.
  if (process.stderr.isTTY)
    process.stderr.write(`pi: building ${stale.join(', ')} (first start, or sources changed)…\n`);
  const { register } = await import('tsx/esm/api');
  register();
  const { buildApps } = await import('../src/build-apps.ts');
  await buildApps(stale);
}
