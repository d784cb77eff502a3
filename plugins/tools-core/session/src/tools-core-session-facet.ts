import type { CodingAgentSessionPluginContext } from '@pi/plugin-api';
import { ProjectFiles, TOOLS_CORE_PLUGIN_ID } from '@pi/tools-core';
import { coreTools } from './core-tools';
import { searchProjectFiles } from './project-file-search';

/** The manifest id this facet answers to. */
export const pluginId = TOOLS_CORE_PLUGIN_ID;

/**
 * The session facet of @pi/tools-core: contributes `read`, `write`, `edit`, `ls`, `find`, `grep` and `bash`,
 * each confined to the session's working directory, and provides `ProjectFiles` (the presentations' `@` file
 * completion). It takes no config; permissions are another plugin's wrapper around these contributions.
 */
export function toolsCoreSessionFacet(context: CodingAgentSessionPluginContext): void {
  if (context.config !== null && !isEmptyObject(context.config)) {
    throw new TypeError(`${TOOLS_CORE_PLUGIN_ID} takes no config`);
  }
  const tools = coreTools(context.paths.cwd);
  context.tools.add((draft) => {
    for (const tool of tools) draft.set(tool.name, tool);
  });
  const { cwd } = context.paths;
  context.provide(ProjectFiles, {
    search: (query, limit, callContext) => searchProjectFiles(cwd, query, limit, { signal: callContext.abortSignal }),
  });
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}
