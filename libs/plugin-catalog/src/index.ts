export { BUILTIN_PLUGINS, DEFAULT_MANIFEST } from './builtin-plugins';
export { hasFacet, type FacetHost, type PluginDescriptor } from './plugin-descriptor';
