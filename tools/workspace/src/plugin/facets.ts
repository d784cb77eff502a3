/** The Nx projects a plugin folder can hold: the contract plus one project per host facet. */
export const hostFacets = ['session', 'tui', 'coordinator'] as const;

export type HostFacet = (typeof hostFacets)[number];
export type PluginProjectKind = 'contract' | HostFacet;

/** The scope and type tags of each kind of plugin project (see the tag table in the brief). */
export const pluginProjectTags: Record<PluginProjectKind, readonly [scope: string, type: string]> = {
  contract: ['scope:shared', 'type:contract'],
  session: ['scope:session', 'type:feature'],
  tui: ['scope:presentation', 'type:feature'],
  coordinator: ['scope:coordinator', 'type:feature'],
};

export function isHostFacet(value: string): value is HostFacet {
  return (hostFacets as readonly string[]).includes(value);
}
