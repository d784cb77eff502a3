import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REGISTER = pathToFileURL(join(fileURLToPath(new URL('.', import.meta.url)), 'module-log', 'register.mjs')).href;

/**
 * Environment that makes a child `node` process log every module it loads into `file`: run-time proof of what
 * a host imported (for example, that a presentation never loads a session module). The program runs from its
 * sources (`PI_FROM_SOURCE`) unless `bundled`: then it runs its bundle when that is current, as `npm start` does,
 * and `loadedModules` reads each chunk it loaded back as the modules the chunk holds.
 */
export function moduleLogEnvironment(
  file: string,
  env: NodeJS.ProcessEnv = process.env,
  options: { readonly bundled?: boolean } = {},
): NodeJS.ProcessEnv {
  const nodeOptions = [env['NODE_OPTIONS'], `--import=${REGISTER}`].filter(Boolean).join(' ');
  const fromSources = options.bundled === true ? {} : { PI_FROM_SOURCE: '1' };
  return { PI_MODULE_LOG: file, NODE_OPTIONS: nodeOptions, ...fromSources };
}

/**
 * The module URLs a child logged, in load order. A file of an app bundle (`dist/apps/<app>`, beside its esbuild
 * `meta.json`) stands for the modules esbuild put in it, as file URLs of their sources: loading a chunk runs them.
 */
export async function loadedModules(file: string): Promise<string[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const bundles = new Map<string, BundleMeta | undefined>();
  return text
    .split('\n')
    .filter((line) => line !== '')
    .flatMap((url) => modulesOf(url, bundles));
}

interface BundleMeta {
  /** The workspace the bundle's paths are relative to. */
  readonly root: string;
  readonly outputs: Readonly<Record<string, { readonly inputs: Readonly<Record<string, unknown>> }>>;
}

function modulesOf(url: string, bundles: Map<string, BundleMeta | undefined>): string[] {
  if (!url.startsWith('file:')) return [url];
  const path = fileURLToPath(url);
  const folder = bundleFolder(path);
  if (folder === undefined) return [url];
  if (!bundles.has(folder)) bundles.set(folder, readBundleMeta(folder));
  const meta = bundles.get(folder);
  const output = meta?.outputs[relative(meta.root, path)];
  if (meta === undefined || output === undefined) return [url];
  return Object.keys(output.inputs).map((input) => pathToFileURL(join(meta.root, input)).href);
}

/** `dist/apps/<app>` when `path` is in one. */
function bundleFolder(path: string): string | undefined {
  const match = /^(.*\/dist\/apps\/[^/]+)\//.exec(path);
  return match?.[1];
}

function readBundleMeta(folder: string): BundleMeta | undefined {
  const file = join(folder, 'meta.json');
  if (!existsSync(file)) return undefined;
  const { outputs } = JSON.parse(readFileSync(file, 'utf8')) as Pick<BundleMeta, 'outputs'>;
  return { root: resolve(dirname(file), '..', '..', '..'), outputs };
}
