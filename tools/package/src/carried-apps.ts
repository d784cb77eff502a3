import { chmod, cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { APPS, buildApp, bundleFolder, type AppBundle } from '@pi/app-bundle';
import { DEFAULT_MANIFEST } from '@pi/builtin-plugins';
import { isBundleCurrent, isBundleVouchedFor } from '@pi/connection-files/launch';
import type { Metafile } from 'esbuild';
import { packageNameOf } from './published-packages';

/** What a program package carries of one app: the bin that runs it, relative to the package folder. */
export interface CarriedApp {
  readonly command: string;
  readonly bin: string;
  /**
   * The packages its bundle imports from node_modules at run time, which the program package must depend on: those
   * the app bundler leaves unbundled because they find files beside their own modules (blessed) or load a native
   * addon (the SQLite driver).
   */
  readonly packages: readonly string[];
  /** Where its bundle came from: the checkout's current dist/apps/<name>, or a build of its own. */
  readonly bundle: 'checkout' | 'built';
}

/**
 * Unbundled imports a carried app runs without, so the package does not depend on them: each is loaded only when
 * asked for, and its absence is handled where it is imported. tsx loads a plugin of the user's written in TypeScript
 * (without it the host says to compile the plugin or install tsx); pg-native is pg's native client, which pi never
 * asks for; bufferutil and utf-8-validate are ws's optional speed-ups, required inside a try.
 */
const OPTIONAL_AT_RUN_TIME: ReadonlySet<string> = new Set(['tsx', 'pg-native', 'bufferutil', 'utf-8-validate']);

/** The packages a bundle's outputs import at run time, less the optional ones, sorted. */
export function runtimePackages(metafile: Metafile): string[] {
  const imported = Object.values(metafile.outputs).flatMap((output) =>
    output.imports
      .filter((found) => found.external && !isBuiltin(found.path))
      .map((found) => packageNameOf(found.path)),
  );
  return [...new Set(imported)].filter((name) => !OPTIONAL_AT_RUN_TIME.has(name)).sort();
}

/**
 * The checkout's bundle of `app` (dist/apps/<name>) when it is current, as the launcher tells it: the test run made it
 * current (`PI_CURRENT_BUNDLES`), or none of the files it was made of (the bundler's own sources among them) changed
 * since it was built. Such a bundle is what building it again would write, file for file: `buildApp` bundles from
 * the workspace (its paths relative to it, its chunks importing each other relatively), so the folder it writes to
 * changes nothing but `meta.json`'s output paths and `build-info.json`'s time, which a package leaves out.
 */
export async function currentCheckoutBundle(app: AppBundle, root: string): Promise<string | undefined> {
  const folder = bundleFolder(app, join(root, 'dist', 'apps'));
  const program = pathToFileURL(join(folder, `${app.output}.mjs`));
  return isBundleVouchedFor(program) || (await isBundleCurrent(program)) ? folder : undefined;
}

/** What a build leaves beside the bundle for a checkout's start; nothing a package runs. */
const BUILD_RECORDS = ['build-info.json', 'meta.json'];

/** Copies a checkout's bundle into `folder` without its build records; resolves with the bundler's metafile. */
async function copyCheckoutBundle(checkout: string, folder: string): Promise<Metafile> {
  const metafile = JSON.parse(await readFile(join(checkout, 'meta.json'), 'utf8')) as Metafile;
  const records = new Set(BUILD_RECORDS.map((file) => join(checkout, file)));
  await cp(checkout, folder, { recursive: true, filter: (source) => !records.has(source) });
  return metafile;
}

/**
 * Puts the app bundle `name` (what `npm start` runs from dist/apps/<name>: its entry and its host's built-in facets,
 * shared chunks) into `<outDir>/<name>`, the checkout's copied when it is current (`currentCheckoutBundle`: a build
 * would write the same files, and three builds cost a test run ~6 s of CPU) or else built there, beside a program
 * bundled into `<outDir>/bin`: `findPiProgram` looks for a pi program in a sibling folder of the caller's, so `pi -p`
 * starts this session. The built-in plugins' package.json
 * files (name, version, `pi` field) go into the bundle folder's `node_modules`, where the host looks up the
 * built-in manifest's ids (the bundle's `BUILTIN_PLUGINS_ROOT` is its folder); their facets are the bundle's own.
 */
export async function bundleCarriedApp(name: string, outDir: string, root: string): Promise<CarriedApp> {
  const app = APPS.find((candidate) => candidate.name === name);
  if (app === undefined) throw new Error(`${name} is not an app of tools/app-bundle`);
  if (app.host === null) throw new Error(`${name} loads no plugins: bundle it as the program itself`);
  const folder = join(outDir, app.name);
  const checkout = await currentCheckoutBundle(app, root);
  const metafile = checkout === undefined ? await buildApp(app, folder) : await copyCheckoutBundle(checkout, folder);
  await Promise.all(BUILD_RECORDS.map((file) => rm(join(folder, file), { force: true })));
  for (const id of DEFAULT_MANIFEST.plugins) {
    const source = JSON.parse(await readFile(join(root, 'node_modules', id, 'package.json'), 'utf8')) as {
      name: string;
      version: string;
      pi?: unknown;
    };
    const target = join(folder, 'node_modules', id);
    await mkdir(target, { recursive: true });
    const metadata = { name: source.name, version: source.version, private: true, pi: source.pi };
    await writeFile(join(target, 'package.json'), `${JSON.stringify(metadata, null, 2)}\n`);
  }
  const program = join(folder, `${app.output}.mjs`);
  // npm links a bin to the file itself: it runs by its `#!` line, the checkout's bin's (pi-tui's node options).
  await writeFile(program, `${await checkoutShebang(root, app.name, app.output)}\n${await readFile(program, 'utf8')}`);
  await chmod(program, 0o755);
  return {
    command: app.output,
    bin: `./${app.name}/${app.output}.mjs`,
    packages: runtimePackages(metafile),
    bundle: checkout === undefined ? 'built' : 'checkout',
  };
}

/**
 * The `#!` line of the app's bin in the checkout (`apps/<name>/bin/<output>.mjs`), so the installed program runs with
 * the node options the checkout's does (`#!/usr/bin/env -S node --max-semi-space-size=1` for pi-tui); plain node when
 * that bin has none.
 */
export async function checkoutShebang(root: string, name: string, output: string): Promise<string> {
  const [first = ''] = (await readFile(join(root, 'apps', name, 'bin', `${output}.mjs`), 'utf8')).split('\n', 1);
  return first.startsWith('#!') ? first : '#!/usr/bin/env node';
}
