import { SpanKind as OtelSpanKind } from '@opentelemetry/api';
import type { SpanKind } from './telemetry-types';

// A Record over the union makes a kind without a mapping a compile error.
const toOtel: Record<SpanKind, OtelSpanKind> = {
  internal: OtelSpanKind.INTERNAL,
  client: OtelSpanKind.CLIENT,
  server: OtelSpanKind.SERVER,
  producer: OtelSpanKind.PRODUCER,
  consumer: OtelSpanKind.CONSUMER,
};

export function toOtelSpanKind(kind: SpanKind | undefined): OtelSpanKind {
  return toOtel[kind ?? 'internal'];
}

export function fromOtelSpanKind(kind: OtelSpanKind): SpanKind {
  const entry = Object.entries(toOtel).find(([, value]) => value === kind);
  return (entry?.[0] as SpanKind | undefined) ?? 'internal';
}
