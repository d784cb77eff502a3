export { hasFacet, type FacetHost, type PluginDescriptor } from './plugin-descriptor';
