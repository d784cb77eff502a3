import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import defaultManifest from './default-manifest.json' with { type: 'json' };

/** The manifest every host starts with unless given another: the built-in plugins, in precedence order. */
export const DEFAULT_MANIFEST: { readonly plugins: readonly string[] } = defaultManifest;

/**
 * Where the built-in plugins are installed from: this package depends on each of them, so a host resolves the
 * default manifest's ids from here, the same way it resolves any plugin named by package.
 */
export const BUILTIN_PLUGINS_ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
