#!/usr/bin/env node
// Makes sure dist/apps holds current bundles of the apps, rebuilding only what is stale: a bundle is stale when
// it is missing or any source file it was made of changed after it was built. Checking costs a few stats, so
// `npm start` pays for a build only after a change.
import { readFile, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const apps = ['session', 'tui', 'coordinator'];

async function isFresh(app) {
  try {
    const info = JSON.parse(await readFile(join(root, 'dist', 'apps', app, 'build-info.json'), 'utf8'));
    const times = await Promise.all(info.inputs.map((input) => stat(join(root, input)).then((s) => s.mtimeMs)));
    return times.every((time) => time <= info.builtAt);
  } catch {
    return false;
  }
}

const stale = [];
for (const app of apps) if (!(await isFresh(app))) stale.push(app);
if (stale.length > 0) {
  const { register } = await import('tsx/esm/api');
  register();
  const { buildApps } = await import('../src/build-apps.ts');
  await buildApps(stale);
}
