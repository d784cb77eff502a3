import { access } from 'node:fs/promises';
import module from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Fresh module generations for a reload: a facet module imported as `file:…?pi-generation=N&pi-root=R` is a new
 * module instance, and a resolve hook gives every module it imports from under the package root R the same query,
 * so an edited helper of the plugin is read again too. What lies outside R (other packages, R's own
 * node_modules) keeps its one instance. The hook is stateless (everything it needs is in the parent's URL), so
 * one source serves `module.registerHooks` (in-thread, where Node has it) and `module.register` (Node 20).
 */

const GENERATION = 'pi-generation';
const ROOT = 'pi-root';

/** The URL a module resolved to, carried into generation `N` of its parent when it lies under the parent's root. */
export function generationUrl(resolved: string, parent: string | undefined): string {
  if (parent === undefined || !parent.startsWith('file:') || !resolved.startsWith('file:')) return resolved;
  const parentUrl = new URL(parent);
  const generation = parentUrl.searchParams.get('pi-generation');
  const root = parentUrl.searchParams.get('pi-root');
  if (generation === null || root === null) return resolved;
  const child = new URL(resolved);
  if (child.searchParams.has('pi-generation')) return resolved;
  const prefix = root.endsWith('/') ? root : `${root}/`;
  const inside = child.href.split(/[?#]/)[0] ?? '';
  if (!inside.startsWith(prefix) || inside.slice(prefix.length).split('/').includes('node_modules')) return resolved;
  child.searchParams.set('pi-generation', generation);
  child.searchParams.set('pi-root', root);
  return child.href;
}

/** The facet module `url` as generation `generation` of the package it belongs to. */
export async function versionedModuleUrl(url: string, generation: number): Promise<string> {
  const root = await packageRootOf(fileURLToPath(url));
  await installGenerationHook();
  const versioned = new URL(url);
  versioned.searchParams.set(GENERATION, String(generation));
  versioned.searchParams.set(ROOT, pathToFileURL(root).href);
  return versioned.href;
}

/** The folder of the nearest package.json above `file` (the file's own folder when there is none). */
export async function packageRootOf(file: string): Promise<string> {
  for (let folder = dirname(file); ; folder = dirname(folder)) {
    const found = await access(join(folder, 'package.json')).then(
      () => true,
      () => false,
    );
    if (found) return folder;
    if (dirname(folder) === folder) return dirname(file);
  }
}

type SyncResolve = (specifier: string, context: { parentURL?: string }) => { url: string };
type RegisterHooks = (hooks: {
  resolve(specifier: string, context: { parentURL?: string }, next: SyncResolve): { url: string };
}) => unknown;

let installed: Promise<void> | undefined;

/** Registers the resolve hook once per process, in-thread where Node can, else on Node 20's loader thread. */
function installGenerationHook(): Promise<void> {
  return (installed ??= (async () => {
    const registerHooks = (module as unknown as { registerHooks?: RegisterHooks }).registerHooks;
    if (registerHooks !== undefined) {
      registerHooks({
        resolve(specifier, context, next) {
          const resolved = next(specifier, context);
          return { ...resolved, url: generationUrl(resolved.url, context.parentURL) };
        },
      });
      return;
    }
    // The loader thread gets the same function as source: it must not refer to anything outside itself.
    // `__name`: what a bundler keeping names may have wrapped a nested function in.
    const source = `const __name = (target) => target;
const generationUrl = ${generationUrl.toString()};
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  return { ...resolved, url: generationUrl(resolved.url, context.parentURL) };
}`;
    module.register(`data:text/javascript,${encodeURIComponent(source)}`);
  })());
}
