/** What the standard OTEL_* variables ask of a host, decided without loading any OpenTelemetry SDK code. */
export type ExportConfig =
  | { readonly kind: 'off' }
  | { readonly kind: 'refused'; readonly reason: string }
  | { readonly kind: 'on'; readonly tracesUrl: string; readonly serviceName: string };

const OFF: ExportConfig = { kind: 'off' };

/**
 * Reads the endpoint, service name and switches. Only OTLP over http/JSON is exported: a signal-specific
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` is used as is, the general `OTEL_EXPORTER_OTLP_ENDPOINT` gets `v1/traces`
 * appended (as the OTLP specification says). An empty variable counts as unset.
 */
export function readExportConfig(env: NodeJS.ProcessEnv, defaultServiceName: string): ExportConfig {
  if (setting(env, 'OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return OFF;
  const exporters = setting(env, 'OTEL_TRACES_EXPORTER')?.toLowerCase();
  if (exporters !== undefined && exporters.split(',').some((name) => name.trim() === 'none')) return OFF;
  const tracesEndpoint = setting(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  const endpoint = setting(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  if (tracesEndpoint === undefined && endpoint === undefined) return OFF;
  const name = tracesEndpoint === undefined ? 'OTEL_EXPORTER_OTLP_ENDPOINT' : 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT';
  const value = tracesEndpoint ?? endpoint ?? '';
  if (!isHttpUrl(value)) return { kind: 'refused', reason: `${name} is not an http(s) URL: ${JSON.stringify(value)}` };
  const protocol = setting(env, 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') ?? setting(env, 'OTEL_EXPORTER_OTLP_PROTOCOL');
  if (protocol === 'grpc') return { kind: 'refused', reason: 'OTLP over gRPC is not supported, only http/json' };
  const tracesUrl = tracesEndpoint ?? `${value}${value.endsWith('/') ? '' : '/'}v1/traces`;
  return { kind: 'on', tracesUrl, serviceName: setting(env, 'OTEL_SERVICE_NAME') ?? defaultServiceName };
}

function setting(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
