import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import { join } from 'node:path';
import { APPS, buildApp } from '@pi/app-bundle';
import { DEFAULT_MANIFEST } from '@pi/builtin-plugins';
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
 * Builds the app bundle `name` (as `npm start` builds dist/apps/<name>: its entry and its host's built-in facets,
 * shared chunks) into `<outDir>/<name>`, beside a program bundled into `<outDir>/bin`: `findPiProgram` looks for a
 * pi program in a sibling folder of the caller's, so `pi -p` starts this session. The built-in plugins' package.json
 * files (name, version, `pi` field) go into the bundle folder's `node_modules`, where the host looks up the
 * built-in manifest's ids (the bundle's `BUILTIN_PLUGINS_ROOT` is its folder); their facets are the bundle's own.
 */
export async function bundleCarriedApp(name: string, outDir: string, root: string): Promise<CarriedApp> {
  const app = APPS.find((candidate) => candidate.name === name);
  if (app === undefined) throw new Error(`${name} is not an app of tools/app-bundle`);
  if (app.host === null) throw new Error(`${name} loads no plugins: bundle it as the program itself`);
  const folder = join(outDir, app.name);
  const metafile = await buildApp(app, folder);
  // What a checkout's start reads to tell a stale bundle, and the bundler's report: nothing a package runs.
  await Promise.all(['build-info.json', 'meta.json'].map((file) => rm(join(folder, file), { force: true })));
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
  return { command: app.output, bin: `./${app.name}/${app.output}.mjs`, packages: runtimePackages(metafile) };
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
