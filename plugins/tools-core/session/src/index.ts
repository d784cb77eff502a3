import { toolsCoreSessionFacet } from './tools-core-session-facet';

export { bashTool, type BashArguments, type BashToolOptions } from './bash-tool';
export { coreTools } from './core-tools';
export { editTool, type EditArguments } from './edit-tool';
export { findTool, type FindArguments } from './find-tool';
export { grepTool, type GrepArguments } from './grep-tool';
export { lsTool, type LsArguments } from './ls-tool';
export { readTool, type ReadArguments } from './read-tool';
export { TOOL_LIMITS } from './tool-limits';
export { pluginId, toolsCoreSessionFacet } from './tools-core-session-facet';
export { resolveInside, type InsidePath } from './workspace-paths';
export { writeTool, type WriteArguments } from './write-tool';

/** The host imports the module the contract's "pi" field names and runs its default export. */
export default toolsCoreSessionFacet;
