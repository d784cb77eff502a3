import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BUILTIN_PLUGINS_ROOT, DEFAULT_MANIFEST } from '@pi/builtin-plugins';
import * as hostTokens from '@pi/plugin-api';
import type { Interaction } from '@pi/remote';

/** Where a token comes from: the contract package exporting it, under which name. */
export interface TokenSource {
  readonly packageName: string;
  readonly exportName: string;
}

export interface ManifestTokens {
  /** Plugin ids in manifest order, with their package descriptions. */
  readonly plugins: ReadonlyArray<{ readonly id: string; readonly description: string }>;
  /** Remote service tokens by service id. */
  readonly services: ReadonlyMap<string, TokenSource>;
  /** Interaction tokens by interaction id. */
  readonly interactions: ReadonlyMap<string, TokenSource & { readonly token: Interaction<unknown, unknown> }>;
}

/**
 * The tokens the plugin API and the default manifest's contract packages export, found by importing each package
 * (resolved the way hosts resolve built-ins) and looking at what it exports. A host's description says what it serves; only the
 * contracts know which package a token comes from, and which interactions a host may request before it has.
 */
export async function manifestTokens(): Promise<ManifestTokens> {
  const require = createRequire(join(BUILTIN_PLUGINS_ROOT, 'package.json'));
  const plugins: Array<{ id: string; description: string }> = [];
  const services = new Map<string, TokenSource>();
  const interactions = new Map<string, TokenSource & { token: Interaction<unknown, unknown> }>();
  const collect = (packageName: string, exports: Record<string, unknown>) => {
    for (const [exportName, value] of Object.entries(exports)) {
      const kind = (value as { kind?: unknown } | null)?.kind;
      const tokenId = (value as { id?: unknown } | null)?.id;
      if (typeof tokenId !== 'string') continue;
      if (kind === 'remote-service') services.set(tokenId, { packageName, exportName });
      if (kind === 'interaction') {
        interactions.set(tokenId, { packageName, exportName, token: value as Interaction<unknown, unknown> });
      }
    }
  };
  // The services every session host serves itself (views, diagnostics) are declared in the plugin API.
  collect('@pi/plugin-api', hostTokens);
  for (const id of DEFAULT_MANIFEST.plugins) {
    const manifest = JSON.parse(await readFile(require.resolve(`${id}/package.json`), 'utf8'));
    plugins.push({ id, description: String(manifest.pi?.description ?? '') });
    collect(id, (await import(pathToFileURL(require.resolve(id)).href)) as Record<string, unknown>);
  }
  return { plugins, services, interactions };
}
