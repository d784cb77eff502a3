/** The plugin's id: its package name, which manifests list. It has a session facet only. */
export const TOOL_TELEMETRY_PLUGIN_ID = '@pi/tool-telemetry';

/** The span of one execution of a tool: `tool.bash`. */
export function toolSpanName(tool: string): string {
  return `tool.${tool}`;
}

/**
 * The only attributes a tool span carries. Arguments and output are never recorded: a command line, a file's
 * content or a tool's output may hold secrets, and spans leave the machine.
 */
export const TOOL_SPAN_ATTRIBUTES = {
  name: 'pi.tool.name',
  outcome: 'pi.tool.outcome',
} as const;

/** `ok`: a result; `error`: a result marked `isError` (a denial included); `threw`: execute threw. */
export const TOOL_OUTCOMES = { ok: 'ok', error: 'error', threw: 'threw' } as const;

export type ToolOutcome = (typeof TOOL_OUTCOMES)[keyof typeof TOOL_OUTCOMES];
