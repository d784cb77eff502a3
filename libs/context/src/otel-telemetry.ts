import { INVALID_SPAN_CONTEXT, ProxyTracerProvider, ROOT_CONTEXT, isSpanContextValid, trace } from '@opentelemetry/api';
import type { Link, Context as OtelContext, Span as OtelSpan } from '@opentelemetry/api';
import { runInSpan, toException } from './run-in-span';
import { toOtelSpanKind } from './span-kind';
import type { SpanOptions, TelemetryContext, TelemetrySpan, TraceCarrier } from './telemetry-types';
import { extractRemoteParent, injectCarrier } from './w3c-propagation';

export const TRACER_NAME = 'pi';

/** A TelemetryContext over an explicit OTel context: we pass parents by hand instead of using a context manager. */
export class OtelTelemetryContext implements TelemetryContext {
  readonly traceId: string | undefined;
  readonly spanId: string | undefined;
  readonly #otelContext: OtelContext;

  constructor(otelContext: OtelContext) {
    this.#otelContext = otelContext;
    const spanContext = trace.getSpanContext(otelContext);
    // With no tracer provider every span carries the shared invalid context: known invalid without two regex tests.
    const valid = spanContext !== undefined && spanContext !== INVALID_SPAN_CONTEXT && isSpanContextValid(spanContext);
    this.traceId = valid ? spanContext.traceId : undefined;
    this.spanId = valid ? spanContext.spanId : undefined;
  }

  startSpan<R>(options: SpanOptions, fn: (span: TelemetrySpan) => R): R {
    // Without a tracer or a parent every span is the same non-recording root: hand that one over instead of making
    // a tracer, a span, an OTel context and a telemetry object per call. Checked per call so that a provider installed
    // (or replaced) after import is honoured.
    if (this.traceId === undefined && !tracerInstalled()) return fn(UNTRACED_SPAN);
    const tracer = trace.getTracer(TRACER_NAME);
    const links = options.links === undefined ? [] : linksOf(options.links);
    const otelSpan = tracer.startSpan(
      options.name,
      {
        kind: toOtelSpanKind(options.kind),
        ...(options.attributes ? { attributes: options.attributes } : {}),
        ...(links.length > 0 ? { links } : {}),
      },
      this.#otelContext,
    );
    const span = new OtelTelemetrySpan(otelSpan, trace.setSpan(this.#otelContext, otelSpan));
    return runInSpan(otelSpan, () => fn(span));
  }

  inject(): TraceCarrier {
    // No valid span: the propagator would inject nothing (after testing the ids against its patterns).
    return this.traceId === undefined ? {} : injectCarrier(this.#otelContext);
  }
}

class OtelTelemetrySpan extends OtelTelemetryContext implements TelemetrySpan {
  readonly #span: OtelSpan;

  constructor(span: OtelSpan, otelContext: OtelContext) {
    super(otelContext);
    this.#span = span;
  }

  setAttribute(key: string, value: string | number | boolean): void {
    this.#span.setAttribute(key, value);
  }

  recordException(error: unknown): void {
    this.#span.recordException(toException(error));
  }

  addLink(to: TelemetryContext): void {
    this.#span.addLinks(linksOf([to]));
  }
}

/** The OTel links to what the contexts' spans are; any TelemetryContext is read through its W3C carrier. */
function linksOf(contexts: readonly TelemetryContext[]): Link[] {
  const links: Link[] = [];
  for (const context of contexts) {
    if (context.spanId === undefined) continue;
    const parent = extractRemoteParent(context.inject());
    const spanContext = parent === undefined ? undefined : trace.getSpanContext(parent);
    if (spanContext !== undefined) links.push({ context: spanContext });
  }
  return links;
}

/** No parent span: every span started from it begins a new trace. */
export const ROOT_TELEMETRY: TelemetryContext = new OtelTelemetryContext(ROOT_CONTEXT);

/** What the OTel API's proxy provider delegates to while no provider is registered. */
const NO_PROVIDER = new ProxyTracerProvider().getDelegate();

/**
 * Whether spans may record: false only when the global provider is this API's proxy with nothing behind it. A
 * provider registered through another copy of the API counts as installed.
 */
function tracerInstalled(): boolean {
  const provider = trace.getTracerProvider();
  return !(provider instanceof ProxyTracerProvider) || provider.getDelegate() !== NO_PROVIDER;
}

/** The span every untraced call gets: no ids, nothing to record, and its children are roots as ROOT_TELEMETRY's are. */
class UntracedSpan extends OtelTelemetryContext implements TelemetrySpan {
  setAttribute(): void {
    // Nothing records without a tracer.
  }

  recordException(): void {
    // Nothing records without a tracer.
  }

  addLink(): void {
    // Nothing records without a tracer.
  }
}

const UNTRACED_SPAN: TelemetrySpan = new UntracedSpan(ROOT_CONTEXT);

/**
 * The span `parent.startSpan` would hand its callback when nothing can record (no trace to continue and no tracer
 * installed), or undefined when a span might record. For a hot path that runs its body inline when untraced instead
 * of as a callback (a server's call: no closure and no second async function per call), and through `startSpan`
 * otherwise. Only this library's own telemetry contexts are known; any other may record.
 */
export function untracedSpan(parent: TelemetryContext): TelemetrySpan | undefined {
  return parent instanceof OtelTelemetryContext && parent.traceId === undefined && !tracerInstalled()
    ? UNTRACED_SPAN
    : undefined;
}
