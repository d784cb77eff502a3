export {
  TOOL_OUTCOMES,
  TOOL_SPAN_ATTRIBUTES,
  TOOL_TELEMETRY_PLUGIN_ID,
  toolSpanName,
  type ToolOutcome,
} from './tool-spans';
