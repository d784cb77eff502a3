import type { SessionFacet } from '@pi/plugin-api';
import { TOOL_TELEMETRY_PLUGIN_ID } from '@pi/tool-telemetry';
import { parseToolTelemetryConfig } from './telemetry-config';
import { tracedTool } from './traced-tool';

/** The manifest id this facet answers to. */
export const pluginId = TOOL_TELEMETRY_PLUGIN_ID;

/**
 * The session facet of @pi/tool-telemetry: one contribution wrapping every tool in the draft at its place in the
 * manifest, so listed after the tools and their other wrappers it is the outermost layer —
 * telemetry(permissions(core)) — and its span covers everything a call does, the user's confirmation included.
 * Tools contributed by plugins listed after it are not traced.
 */
export const toolTelemetrySessionFacet: SessionFacet = (context) => {
  parseToolTelemetryConfig(context.config);
  context.tools.add((draft) => {
    for (const name of draft.ids()) draft.wrap(name, (inner) => tracedTool(name, inner));
  });
};
