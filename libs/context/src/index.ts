export { createContextKey, defineSharedContextKey } from './context-key';
export type { ContextKey } from './context-key';
export {
  BACKGROUND_CONTEXT,
  isContext,
  withAbortSignal,
  withContextValue,
  withDeferredAbort,
  withTelemetryContext,
} from './context';
export { DeferredAbort } from './deferred-abort';
export { takeEnvironmentCarrier, withEnvironmentCarrier } from './environment-carrier';
export type { Context } from './context';
export { extractTelemetryContext } from './extract-telemetry-context';
export { ROOT_TELEMETRY, untracedSpan } from './otel-telemetry';
export type {
  SpanAttributes,
  SpanKind,
  SpanOptions,
  TelemetryContext,
  TelemetrySpan,
  TraceCarrier,
} from './telemetry-types';
