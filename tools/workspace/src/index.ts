export { pluginGenerator } from './plugin/generator';
export { type HostFacet, type PluginProjectKind, hostFacets, pluginProjectTags } from './plugin/facets';
export {
  type PluginGeneratorSchema,
  type PluginOptions,
  PluginOptionsError,
  normalizePluginOptions,
} from './plugin/options';
export { FILE_DURATIONS, type FileDurations, formatFileDurations, longestFirst } from './test/file-order';
export { batchTypecheckFinished } from './typecheck/batch-typecheck';
export { nativeCompiler } from './typecheck/solution-typecheck';
