import { ProxyTracerProvider, trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { toFinishedSpan } from './finished-span';
import type { FinishedSpan } from './finished-span';

export type { FinishedSpan } from './finished-span';

export interface InMemoryTelemetry {
  /** Spans ended since install or the last reset, in the order they ended. */
  spans(): ReadonlyArray<FinishedSpan>;
  reset(): void;
  /** Restores the no-op global tracer provider. */
  uninstall(): void;
}

/**
 * Registers a global tracer provider that records every ended span in memory; no context manager is
 * installed because contexts are passed explicitly. A second install replaces the first.
 */
export function installInMemoryTelemetry(): InMemoryTelemetry {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  // The OTel API refuses a second registration, so clear any earlier one first.
  trace.disable();
  trace.setGlobalTracerProvider(provider);
  return {
    spans: () => exporter.getFinishedSpans().map(toFinishedSpan),
    reset: () => exporter.reset(),
    uninstall: () => {
      // Only undo our own registration, so a stale handle cannot remove a later install.
      const global = trace.getTracerProvider();
      if (global instanceof ProxyTracerProvider && global.getDelegate() === provider) trace.disable();
      void provider.shutdown();
    },
  };
}
