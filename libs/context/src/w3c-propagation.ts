import { ROOT_CONTEXT, isSpanContextValid, trace } from '@opentelemetry/api';
import type { Context as OtelContext, TextMapGetter, TextMapSetter } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { TraceCarrier } from './telemetry-types';

const propagator = new W3CTraceContextPropagator();

// Carriers here are always our own null-prototype objects, so plain property access is safe.
const carrierSetter: TextMapSetter<TraceCarrier> = {
  set: (carrier, key, value) => {
    if (key === 'traceparent' || key === 'tracestate') carrier[key] = value;
  },
};
const carrierGetter: TextMapGetter<TraceCarrier> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => (key === 'traceparent' || key === 'tracestate' ? carrier[key] : undefined),
};

export function injectCarrier(otelContext: OtelContext): TraceCarrier {
  const carrier: TraceCarrier = {};
  propagator.inject(otelContext, carrier, carrierSetter);
  return carrier;
}

/** Returns a remote parent context, or undefined when the (already shape-checked) carrier holds no valid span. */
export function extractRemoteParent(carrier: TraceCarrier): OtelContext | undefined {
  const extracted = propagator.extract(ROOT_CONTEXT, carrier, carrierGetter);
  const spanContext = trace.getSpanContext(extracted);
  return spanContext !== undefined && isSpanContextValid(spanContext) ? extracted : undefined;
}
