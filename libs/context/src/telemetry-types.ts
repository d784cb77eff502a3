export type SpanKind = 'internal' | 'client' | 'server' | 'producer' | 'consumer';

export type SpanAttributes = Record<string, string | number | boolean>;

export interface SpanOptions {
  name: string;
  kind?: SpanKind;
  attributes?: SpanAttributes;
  /**
   * Spans this one follows from without being their child (the call that queued a run, the process that spawned
   * this one); a context with no span is left out.
   */
  links?: readonly TelemetryContext[];
}

/** W3C trace context: the only telemetry that ever crosses a wire. */
export interface TraceCarrier {
  traceparent?: string;
  tracestate?: string;
}

export interface TelemetryContext {
  /**
   * Starts a child span (parented to this telemetry context), runs fn, ends the span when fn returns or its
   * promise settles; a throw/rejection records the exception + error status and is rethrown.
   */
  startSpan<R>(options: SpanOptions, fn: (span: TelemetrySpan) => R): R;
  /** W3C carrier for this context's current span ({} for a root context with no span). */
  inject(): TraceCarrier;
  readonly traceId: string | undefined;
  readonly spanId: string | undefined;
}

export interface TelemetrySpan extends TelemetryContext {
  setAttribute(key: string, value: string | number | boolean): void;
  recordException(error: unknown): void;
  /** Links this span to `to`'s span, learnt only after this one started (a context with no span adds nothing). */
  addLink(to: TelemetryContext): void;
}
