import { type HostFacet, hostFacets, isHostFacet } from './facets';
import { MAX_PLUGIN_NAME_LENGTH, isKebabCase } from './names';

/** The generator's options as Nx passes them (see schema.json). */
export interface PluginGeneratorSchema {
  name: string;
  /** comma-separated (from the CLI) or a list (from code) */
  facets?: string | readonly string[];
  skipInstall?: boolean;
  /** One package outside the workspace instead of projects under plugins/. */
  standalone?: boolean;
  /** Where a standalone plugin goes, relative to the workspace or absolute (default: beside the workspace). */
  directory?: string;
}

export interface PluginOptions {
  readonly name: string;
  readonly facets: readonly HostFacet[];
  readonly skipInstall: boolean;
  /** The folder of a standalone plugin, relative to the workspace or absolute; null for workspace projects. */
  readonly standaloneDirectory: string | null;
}

export class PluginOptionsError extends Error {
  override readonly name = 'PluginOptionsError';
}

/** Checks the raw options and returns them normalized, or throws a PluginOptionsError that says what to fix. */
export function normalizePluginOptions(schema: PluginGeneratorSchema): PluginOptions {
  const name = String(schema.name ?? '').trim();
  if (!isKebabCase(name)) {
    throw new PluginOptionsError(
      `Plugin name "${name}" is not kebab-case: use lowercase letters and digits in words joined by "-", starting with a letter (e.g. "question" or "session-directory").`,
    );
  }
  if (name.length > MAX_PLUGIN_NAME_LENGTH) {
    throw new PluginOptionsError(
      `Plugin name "${name}" is ${name.length} characters long; use at most ${MAX_PLUGIN_NAME_LENGTH} (it prefixes the plugin's service ids, which are limited to 64).`,
    );
  }
  if (schema.directory !== undefined && schema.standalone !== true) {
    throw new PluginOptionsError('--directory is for a standalone plugin: add --standalone, or leave it out.');
  }
  const standaloneDirectory = schema.standalone === true ? (schema.directory ?? `../pi-plugin-${name}`) : null;
  return {
    name,
    facets: parseFacets(schema.facets ?? 'session'),
    skipInstall: schema.skipInstall === true,
    standaloneDirectory,
  };
}

function parseFacets(raw: string | readonly string[]): HostFacet[] {
  const listed = (typeof raw === 'string' ? raw.split(',') : raw).map((facet) => facet.trim()).filter(Boolean);
  const facets: HostFacet[] = [];
  for (const facet of listed) {
    if (facet === 'contract') continue; // always generated; naming it is harmless
    if (!isHostFacet(facet)) {
      throw new PluginOptionsError(
        `Unknown facet "${facet}": --facets takes a comma-separated subset of ${hostFacets.join(', ')} (the contract is always generated).`,
      );
    }
    if (facets.includes(facet)) throw new PluginOptionsError(`Facet "${facet}" is listed twice in --facets.`);
    facets.push(facet);
  }
  return hostFacets.filter((facet) => facets.includes(facet));
}
