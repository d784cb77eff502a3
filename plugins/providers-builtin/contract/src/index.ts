export { PROVIDERS_BUILTIN_PLUGIN_ID } from './plugin-descriptor';
export {
  Models,
  THINKING_LEVELS,
  UNKNOWN_MODEL,
  modelRefSchema,
  modelSpecSchema,
  modelsStateSchema,
  refreshStatusSchema,
  thinkingLevelSchema,
  type ModelRef,
  type ModelSpec,
  type ModelsService,
  type ModelsState,
  type RefreshStatus,
  type ThinkingLevel,
} from './models-service';
