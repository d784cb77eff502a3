import { toolTelemetrySessionFacet } from './tool-telemetry-session-facet';

export { parseToolTelemetryConfig } from './telemetry-config';
export { tracedTool } from './traced-tool';
export { pluginId, toolTelemetrySessionFacet } from './tool-telemetry-session-facet';

/** The session host imports the module the contract's "pi" field names and runs its default export. */
export default toolTelemetrySessionFacet;
