export { CallbackFailures, MAX_CALLBACK_FAILURES } from './callback-failures';
export { consumingContext } from './consuming-side';
export { debugRequested, failureText } from './debug-detail';
export { findPlugins, importFacets, loadFacets, type FoundPlugin, type LoadedFacet } from './facet-loader';
export type { PluginLoadError } from './plugin-load-error';
export { findPluginPackage, type PluginLookup, type PluginPackage } from './plugin-package';
export { readBundledFacets, readManifestSource, type ManifestSource } from './manifest-source';
export {
  reloadPluginSet,
  resolvePluginSet,
  type PluginSet,
  type PluginSetRequest,
  type ScopeReport,
} from './plugin-set';
export { globalScopeFiles, projectScopeFiles, type PluginScope, type ScopeFiles } from './plugin-scopes';
export {
  DEV_RELOAD_DEBOUNCE_MS,
  pluginRootsOf,
  startDevReload,
  type DevReload,
  type DevReloadOptions,
} from './dev-reload';
export { ProvidingSide, type ExposeOptions } from './providing-side';
export { runFacets, type FacetRunError, type RunnableFacet, type RunningFacets } from './run-facets';
export { coalescedRebuild, scopedContributions } from './scoped-contributions';
