import { readExportConfig } from './export-config';
import type { TraceExport, TraceExportOptions } from './trace-export';

/**
 * Installs OTLP trace export when the standard variables ask for it (OTEL_EXPORTER_OTLP_ENDPOINT or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_SERVICE_NAME, OTEL_SDK_DISABLED, OTEL_TRACES_EXPORTER=none).
 * Unset: resolves to undefined without loading the SDK. A bad value: one warning line, undefined. Never rejects.
 * Call it before the first span; spans started earlier are not recorded.
 */
export async function installTraceExport(options: TraceExportOptions): Promise<TraceExport | undefined> {
  const warn = options.warn ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const config = readExportConfig(options.env, options.defaultServiceName);
  switch (config.kind) {
    case 'off':
      return undefined;
    case 'refused':
      warn(`${options.defaultServiceName}: trace export is off: ${config.reason}`);
      return undefined;
    case 'on':
      try {
        const { registerOtlpProvider } = await import('./otlp-provider');
        const installed = registerOtlpProvider(config.tracesUrl, config.serviceName);
        if (installed === undefined) {
          warn(`${options.defaultServiceName}: trace export is off: a tracer provider is already registered`);
        }
        return installed;
      } catch (error) {
        warn(
          `${options.defaultServiceName}: trace export is off: ${error instanceof Error ? error.message : String(error)}`,
        );
        return undefined;
      }
  }
}
