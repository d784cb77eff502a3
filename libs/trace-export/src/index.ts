export { installTraceExport } from './install-trace-export';
export type { TraceExport, TraceExportOptions } from './trace-export';
