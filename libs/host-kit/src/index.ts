export { CallbackFailures, MAX_CALLBACK_FAILURES } from './callback-failures';
export { consumingContext } from './consuming-side';
export { loadFacets, type LoadedFacet } from './facet-loader';
export type { PluginLoadError } from './plugin-load-error';
export { findPluginPackage, type PluginLookup, type PluginPackage } from './plugin-package';
export { readBundledFacets, readManifestSource, type ManifestSource } from './manifest-source';
export { ProvidingSide, type ExposeOptions } from './providing-side';
export { runFacets, type FacetRunError, type RunnableFacet, type RunningFacets } from './run-facets';
export { coalescedRebuild, scopedContributions } from './scoped-contributions';
