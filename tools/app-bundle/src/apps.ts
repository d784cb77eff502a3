import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const WORKSPACE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** An app as it is bundled: its entry, the host whose facets it loads, and the name of the bundle. */
export interface AppBundle {
  readonly name: 'tui' | 'session' | 'coordinator' | 'cli';
  readonly entry: string;
  /** The host whose built-in facets it carries; null for a program that loads no plugin (the CLI). */
  readonly host: 'tui' | 'session' | 'coordinator' | null;
  readonly output: string;
}

export const APPS: readonly AppBundle[] = [
  { name: 'session', entry: 'apps/session/src/main.ts', host: 'session', output: 'pi-session' },
  { name: 'tui', entry: 'apps/tui/src/main.ts', host: 'tui', output: 'pi-tui' },
  { name: 'coordinator', entry: 'apps/coordinator/src/main.ts', host: 'coordinator', output: 'pi-coordinator' },
  { name: 'cli', entry: 'apps/cli/src/main.ts', host: null, output: 'pi' },
];

/** Where the bundles go: dist/apps/<app>/ holds the entry, facets/, facets.json and build-info.json. */
export function bundleFolder(app: AppBundle, root = join(WORKSPACE_ROOT, 'dist', 'apps')): string {
  return join(root, app.name);
}
