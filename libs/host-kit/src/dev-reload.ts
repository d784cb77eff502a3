import { watch, type FSWatcher } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { HostName } from '@pi/plugin-api';
import type { LoadedFacet } from './facet-loader';
import { packageRootOf } from './module-generations';

/** How long `--dev` waits after the last change before it reloads: an editor's save is several writes. */
export const DEV_RELOAD_DEBOUNCE_MS = 150;

export interface DevReloadOptions {
  /** The folders to watch now: asked at start and again after every reload (the set may have changed). */
  readonly roots: () => Promise<readonly string[]>;
  /** Reloads the plugin set; `--dev` reports the outcome itself. */
  readonly reload: (changed: string) => Promise<void>;
  readonly debounceMs?: number;
}

export interface DevReload {
  /** Resolves once the first watchers are set. */
  readonly ready: Promise<void>;
  close(): void;
}

/**
 * `--dev`: reloads the plugin set when a file under a watched plugin root changes (recursively, never in
 * node_modules), debounced; a change during a reload runs one more reload after it. Nothing is reloaded once closed.
 */
export function startDevReload(options: DevReloadOptions): DevReload {
  const watchers = new Map<string, FSWatcher>();
  const debounceMs = options.debounceMs ?? DEV_RELOAD_DEBOUNCE_MS;
  let timer: NodeJS.Timeout | undefined;
  let changed: string | undefined;
  let reloading: Promise<void> | undefined;
  let closed = false;

  const sync = async () => {
    const roots = new Set(await options.roots());
    if (closed) return;
    for (const [root, watcher] of watchers) {
      if (roots.has(root)) continue;
      watcher.close();
      watchers.delete(root);
    }
    for (const root of roots) {
      if (watchers.has(root)) continue;
      try {
        const watcher = watch(root, { recursive: true }, (_event, file) => heard(root, file));
        watcher.on('error', () => undefined);
        watchers.set(root, watcher);
      } catch {
        // A root that vanished is watched again after the next reload, if the set still has it.
      }
    }
  };
  const heard = (root: string, file: string | Buffer | null) => {
    const name = file === null ? '' : String(file);
    if (closed || name.split(/[\\/]/).includes('node_modules')) return;
    changed = name === '' ? root : `${root}/${name}`;
    clearTimeout(timer);
    timer = setTimeout(run, debounceMs);
  };
  const run = () => {
    if (closed || changed === undefined) return;
    if (reloading !== undefined) return void (timer = setTimeout(run, debounceMs));
    const file = changed;
    changed = undefined;
    reloading = options
      .reload(file)
      .catch(() => undefined)
      .then(sync)
      .finally(() => (reloading = undefined));
  };

  return {
    ready: sync(),
    close() {
      closed = true;
      clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}

/**
 * The package folders of a set's facets that are plugins' own files on disk (`--dev` watches them): not what an app
 * bundle carries (`built`), and not installed packages (under node_modules), which are not edited in place.
 */
export async function pluginRootsOf<H extends HostName>(
  facets: readonly LoadedFacet<H>[],
  built: Readonly<Record<string, string>> = {},
): Promise<string[]> {
  const bundled = new Set(Object.values(built));
  const roots = new Set<string>();
  for (const facet of facets) {
    if (!facet.module.startsWith('file:') || bundled.has(facet.module)) continue;
    const file = fileURLToPath(facet.module.split('?')[0] ?? facet.module);
    if (file.split(/[\\/]/).includes('node_modules')) continue;
    roots.add(await packageRootOf(file));
  }
  return [...roots];
}
