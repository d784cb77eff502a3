/** A facet is a setup function over its host's context; the only plugin-facing shape the kernel needs. */
export type PluginFacet<C> = (context: C) => void | Promise<void>;

/** A facet resolved by a host for one manifest entry, in manifest order. */
export interface FacetEntry<C> {
  readonly id: string;
  readonly facet: PluginFacet<C>;
}
