import { trace } from '@opentelemetry/api';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { extractTelemetryContext } from './extract-telemetry-context';
import { ROOT_TELEMETRY, untracedSpan } from './otel-telemetry';
import { installInMemoryTelemetry } from './testing';

const TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

describe('startSpan with no tracer provider', () => {
  it('hands fn a span with no ids and an empty carrier, and returns what fn returns as it is', () => {
    // Nothing is made per span: not even a tracer is asked for.
    const getTracer = vi.spyOn(trace, 'getTracer');
    onTestFinished(() => getTracer.mockRestore());
    const returned = Promise.resolve('done');
    const seen: Array<{ traceId: string | undefined; spanId: string | undefined; carrier: object }> = [];
    const result = ROOT_TELEMETRY.startSpan({ name: 'untraced' }, (span) => {
      span.setAttribute('a', 1);
      span.recordException(new Error('ignored'));
      seen.push({ traceId: span.traceId, spanId: span.spanId, carrier: span.inject() });
      span.startSpan({ name: 'child' }, (child) => {
        seen.push({ traceId: child.traceId, spanId: child.spanId, carrier: child.inject() });
      });
      return returned;
    });
    expect(result).toBe(returned);
    expect(getTracer).not.toHaveBeenCalled();
    expect(seen).toEqual([
      { traceId: undefined, spanId: undefined, carrier: {} },
      { traceId: undefined, spanId: undefined, carrier: {} },
    ]);
  });

  it('still passes a remote parent on: a span under an extracted traceparent injects the same trace', () => {
    const parent = extractTelemetryContext({ traceparent: TRACEPARENT });
    const carrier = parent.startSpan({ name: 'server' }, (span) => span.inject());
    expect(carrier.traceparent?.split('-')[1]).toBe('0af7651916cd43dd8448eb211c80319c');
  });

  it('records again once a provider is installed, also under a span handed out before it', () => {
    const recorded = ROOT_TELEMETRY.startSpan({ name: 'before' }, (untraced) => {
      const telemetry = installInMemoryTelemetry();
      try {
        untraced.startSpan({ name: 'after install' }, (span) => expect(span.traceId).toMatch(/^[0-9a-f]{32}$/));
        ROOT_TELEMETRY.startSpan({ name: 'root after install' }, () => undefined);
        return telemetry.spans().map((span) => ({ name: span.name, parent: span.parentSpanId }));
      } finally {
        telemetry.uninstall();
      }
    });
    expect(recorded).toEqual([
      { name: 'after install', parent: undefined },
      { name: 'root after install', parent: undefined },
    ]);
    ROOT_TELEMETRY.startSpan({ name: 'after uninstall' }, (span) => expect(span.traceId).toBeUndefined());
  });
});

describe('untracedSpan', () => {
  it('is the span startSpan hands over when nothing records: no parent trace, no tracer', () => {
    const handed = ROOT_TELEMETRY.startSpan({ name: 'untraced' }, (span) => span);
    expect(untracedSpan(ROOT_TELEMETRY)).toBe(handed);
    expect(untracedSpan(extractTelemetryContext({}))).toBe(handed);
    expect(untracedSpan(handed)).toBe(handed);
  });

  it('is undefined under a remote parent, once a tracer is installed, and for telemetry of another making', () => {
    expect(untracedSpan(extractTelemetryContext({ traceparent: TRACEPARENT }))).toBeUndefined();
    const foreign = { ...ROOT_TELEMETRY, startSpan: ROOT_TELEMETRY.startSpan, inject: () => ({}) };
    expect(untracedSpan(foreign)).toBeUndefined();
    const telemetry = installInMemoryTelemetry();
    try {
      expect(untracedSpan(ROOT_TELEMETRY)).toBeUndefined();
    } finally {
      telemetry.uninstall();
    }
    expect(untracedSpan(ROOT_TELEMETRY)).toBeDefined();
  });
});
