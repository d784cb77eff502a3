export { TOOLS_CORE_PLUGIN_ID } from './plugin-id';
export { CORE_TOOL_NAMES, type CoreToolName } from './tool-names';
export {
  TOOL_FAILURE_CODES,
  toolFailureCodeSchema,
  toolFailureDetailsSchema,
  type ToolFailureCode,
  type ToolFailureDetails,
} from './tool-failures';
export {
  bashDetailsSchema,
  fileChangeDetailsSchema,
  listingDetailsSchema,
  readDetailsSchema,
  type BashDetails,
  type FileChangeDetails,
  type ListingDetails,
  type ReadDetails,
} from './tool-details';
export { bodyWithoutNotice, withNotice } from './result-notice';
export {
  PROJECT_FILE_LIMITS,
  ProjectFiles,
  projectFileSearchSchema,
  type ProjectFile,
  type ProjectFileSearch,
  type ProjectFilesService,
} from './project-files';
