import { SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { fromOtelSpanKind } from './span-kind';
import type { SpanAttributes, SpanKind } from './telemetry-types';

/** A finished span as tests see it: plain data in this library's vocabulary, not the SDK's. */
export interface FinishedSpan {
  name: string;
  kind: SpanKind;
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  attributes: SpanAttributes;
  status: 'ok' | 'error' | 'unset';
  /** Event names in order, e.g. 'exception'. */
  events: string[];
  /** The spans this one links to. */
  links: Array<{ traceId: string; spanId: string }>;
}

export function toFinishedSpan(span: ReadableSpan): FinishedSpan {
  const { traceId, spanId } = span.spanContext();
  return {
    name: span.name,
    kind: fromOtelSpanKind(span.kind),
    traceId,
    spanId,
    parentSpanId: span.parentSpanContext?.spanId,
    attributes: primitiveAttributes(span.attributes),
    status: toStatus(span.status.code),
    events: span.events.map((event) => event.name),
    links: span.links.map((link) => ({ traceId: link.context.traceId, spanId: link.context.spanId })),
  };
}

function toStatus(code: SpanStatusCode): FinishedSpan['status'] {
  switch (code) {
    case SpanStatusCode.OK:
      return 'ok';
    case SpanStatusCode.ERROR:
      return 'error';
    case SpanStatusCode.UNSET:
      return 'unset';
  }
}

// We only ever set primitive attributes; array values (from foreign instrumentation) are left out.
function primitiveAttributes(attributes: ReadableSpan['attributes']): SpanAttributes {
  const result: SpanAttributes = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') result[key] = value;
  }
  return result;
}
