import { ProxyTracerProvider, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { TraceExport } from './trace-export';

/** A host's exit waits at most this long for the last batch, even when the collector does not answer. */
const SHUTDOWN_LIMIT_MS = 3_000;

/**
 * Registers a global tracer provider that batches spans to an OTLP http/JSON endpoint. This module is the only
 * one that imports the SDK, and it is loaded only when export is configured. No context manager and no global
 * propagator are installed: @pi/context passes parents explicitly and injects W3C carriers itself.
 * Undefined when another tracer provider is already registered (the API keeps the first).
 */
export function registerOtlpProvider(tracesUrl: string, serviceName: string): TraceExport | undefined {
  const exporter = new OTLPTraceExporter({ url: tracesUrl });
  const provider = new BasicTracerProvider({
    resource: defaultResource().merge(resourceFromAttributes({ 'service.name': serviceName })),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  if (!trace.setGlobalTracerProvider(provider)) {
    void provider.shutdown();
    return undefined;
  }
  let stopping: Promise<void> | undefined;
  return {
    flush: () => quietly(provider.forceFlush()),
    shutdown: () =>
      (stopping ??= (async () => {
        await withinLimit(quietly(provider.shutdown()));
        // Only undo our own registration, so a later install is left alone.
        const global = trace.getTracerProvider();
        if (global instanceof ProxyTracerProvider && global.getDelegate() === provider) trace.disable();
      })()),
  };
}

function quietly(work: Promise<unknown>): Promise<void> {
  return work.then(
    () => undefined,
    () => undefined,
  );
}

function withinLimit(work: Promise<void>): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, SHUTDOWN_LIMIT_MS);
    timer.unref();
    void work.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
