import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { resolve as resolveModule } from 'import-meta-resolve';
import { WORKSPACE_ROOT } from './apps';

/** A facet module of a built-in plugin: the specifier its metadata names and the source file it resolves to. */
export interface BuiltinFacet {
  readonly specifier: string;
  readonly file: string;
}

/**
 * The facet modules of the default manifest's plugins for one host, resolved exactly as the host kit resolves
 * them at run time (from each plugin's package folder), so the bundle holds the same modules.
 */
export function builtinFacets(host: string): BuiltinFacet[] {
  const root = join(WORKSPACE_ROOT, 'libs', 'builtin-plugins');
  const manifest = JSON.parse(readFileSync(join(root, 'src', 'default-manifest.json'), 'utf8')) as {
    plugins: string[];
  };
  const facets: BuiltinFacet[] = [];
  for (const id of manifest.plugins) {
    const packageFile = join(WORKSPACE_ROOT, 'node_modules', id, 'package.json');
    const metadata = JSON.parse(readFileSync(packageFile, 'utf8')) as { pi?: { facets?: Record<string, string> } };
    const specifier = metadata.pi?.facets?.[host];
    if (specifier === undefined || specifier.startsWith('.')) continue;
    facets.push({ specifier, file: fileURLToPath(resolveModule(specifier, pathToFileURL(packageFile).href)) });
  }
  return facets;
}
