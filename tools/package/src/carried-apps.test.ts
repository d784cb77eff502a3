import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPS, buildApp, bundleFolder } from '@pi/app-bundle';
import { isBundleCurrent } from '@pi/connection-files/launch';
import { bundleCarriedApp, checkoutShebang, currentCheckoutBundle } from './carried-apps';
import { WORKSPACE_ROOT } from './workspace-root';

/** Every file under `folder`, relative to it, sorted. */
async function filesIn(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
  return files.map((file) => relative(folder, file)).sort();
}

describe('an app the pi package carries', () => {
  let scratch: string;
  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), 'pi-carried-'));
  });
  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  it('runs by the #! line of its bin in the checkout: pi-tui with its young generation of npm start', async () => {
    expect(await checkoutShebang(WORKSPACE_ROOT, 'tui', 'pi-tui')).toBe(
      '#!/usr/bin/env -S node --max-semi-space-size=1',
    );
    for (const app of APPS) {
      expect(await checkoutShebang(WORKSPACE_ROOT, app.name, app.output), app.name).toMatch(
        /^#!\/usr\/bin\/env (-S )?node/,
      );
    }
  });

  it("is the checkout's current bundle, which is what building it for the package writes, file for file", async () => {
    const app = APPS.find((candidate) => candidate.name === 'coordinator');
    if (app === undefined) throw new Error('no coordinator app');
    // The test run made dist/apps current; a file run alone after an edit builds the stale bundle there first, as the
    // app bundle's own test does.
    const checkout = bundleFolder(app, join(WORKSPACE_ROOT, 'dist', 'apps'));
    if (!(await isBundleCurrent(pathToFileURL(join(checkout, `${app.output}.mjs`))))) await buildApp(app, checkout);
    expect(await currentCheckoutBundle(app, WORKSPACE_ROOT)).toBe(checkout);

    const carried = await bundleCarriedApp(app.name, join(scratch, 'package'), WORKSPACE_ROOT);
    expect(carried).toMatchObject({ bundle: 'checkout', command: 'pi-coordinator' });
    const built = join(scratch, 'built');
    await buildApp(app, built);

    // What the package adds: the built-in plugins' package.json files and the bin's #! line; what it leaves out: the
    // build records a checkout's start reads.
    const folder = join(scratch, 'package', app.name);
    const carriedFiles = (await filesIn(folder)).filter((file) => !file.startsWith('node_modules/'));
    const builtFiles = (await filesIn(built)).filter((file) => !['build-info.json', 'meta.json'].includes(file));
    expect(carriedFiles).toEqual(builtFiles);
    const shebang = await checkoutShebang(WORKSPACE_ROOT, app.name, app.output);
    for (const file of builtFiles) {
      const expected = await readFile(join(built, file), 'utf8');
      const prefix = file === `${app.output}.mjs` ? `${shebang}\n` : '';
      expect(await readFile(join(folder, file), 'utf8'), file).toBe(`${prefix}${expected}`);
    }
  });

  it('is built for the package where the checkout has no current bundle of it', async () => {
    for (const app of APPS) expect(await currentCheckoutBundle(app, scratch), app.name).toBeUndefined();
  });
});
