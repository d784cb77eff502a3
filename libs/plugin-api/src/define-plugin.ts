import type { Facet, HostName } from './host-contexts';

/**
 * A plugin as one in-process bundle: its id and a facet per host it serves. A host that loads the bundle
 * runs only its own facet, with only its own context.
 */
export type PluginDefinition = { readonly id: string } & { readonly [H in HostName]?: Facet<H> };

/** Declares a plugin bundle; the identity function, there for the types and to freeze it. */
export function definePlugin<P extends PluginDefinition>(plugin: P): Readonly<P> {
  return Object.freeze({ ...plugin });
}
