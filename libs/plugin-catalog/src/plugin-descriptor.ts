/** The hosts a plugin can have a facet for. */
export type FacetHost = 'session' | 'tui' | 'coordinator';

/**
 * What every host knows about a plugin without loading it: its id and which hosts it has facets for. Each host
 * resolves the facets it runs from its own table; a missing facet means none for that host.
 */
export interface PluginDescriptor {
  readonly id: string;
  readonly description: string;
  readonly facets: readonly FacetHost[];
}

export function hasFacet(descriptor: PluginDescriptor, host: FacetHost): boolean {
  return descriptor.facets.includes(host);
}
