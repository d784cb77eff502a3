import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { extractTelemetryContext } from './extract-telemetry-context';
import { ROOT_TELEMETRY } from './otel-telemetry';
import { installInMemoryTelemetry } from './testing';
import type { InMemoryTelemetry } from './testing';

let telemetry: InMemoryTelemetry;
beforeEach(() => {
  telemetry = installInMemoryTelemetry();
});
afterEach(() => {
  telemetry.uninstall();
});

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN_ID = '00f067aa0ba902b7';

describe('inject → extract', () => {
  it('parents a span on the far side to the injected span', () => {
    const carrier = ROOT_TELEMETRY.startSpan({ name: 'rpc.client', kind: 'client' }, (span) => span.inject());
    const wire: unknown = JSON.parse(JSON.stringify(carrier));
    extractTelemetryContext(wire).startSpan({ name: 'rpc.server', kind: 'server' }, () => undefined);
    const [client, server] = telemetry.spans();
    expect(carrier.traceparent).toBe(`00-${client?.traceId}-${client?.spanId}-01`);
    expect(server).toMatchObject({ kind: 'server', traceId: client?.traceId, parentSpanId: client?.spanId });
  });

  it('keeps tracestate across the hop', () => {
    const parent = extractTelemetryContext({ traceparent: `00-${TRACE_ID}-${SPAN_ID}-01`, tracestate: 'pi=1' });
    expect(parent).toMatchObject({ traceId: TRACE_ID, spanId: SPAN_ID });
    expect(parent.inject()).toEqual({ traceparent: `00-${TRACE_ID}-${SPAN_ID}-01`, tracestate: 'pi=1' });
  });
});

class CarrierClass {
  constructor(readonly traceparent: string) {}
}
const hostileGetter = Object.defineProperty({}, 'traceparent', {
  enumerable: true,
  get: () => {
    throw new Error('hostile getter');
  },
});
const hostileProxy = new Proxy(
  {},
  {
    getPrototypeOf: () => {
      throw new Error('hostile proxy');
    },
  },
);

describe('extractTelemetryContext on untrusted input', () => {
  const valid = `00-${TRACE_ID}-${SPAN_ID}-01`;
  const malformed: Array<[string, unknown]> = [
    ['undefined', undefined],
    ['null', null],
    ['a garbage string', 'traceparent: nope'],
    ['a number', 42],
    ['an array', [valid]],
    ['a wrong-typed traceparent', { traceparent: 42 }],
    ['a wrong-typed tracestate', { traceparent: valid, tracestate: ['x'] }],
    ['an empty object', {}],
    ['a garbage traceparent', { traceparent: 'not-a-trace-parent' }],
    ['version ff', { traceparent: `ff-${TRACE_ID}-${SPAN_ID}-01` }],
    ['version 00 with extra parts', { traceparent: `${valid}-extra` }],
    ['an all-zero trace id', { traceparent: `00-${'0'.repeat(32)}-${SPAN_ID}-01` }],
    ['an all-zero span id', { traceparent: `00-${TRACE_ID}-${'0'.repeat(16)}-01` }],
    ['an over-long traceparent', { traceparent: valid + ' '.repeat(200) }],
    ['an own __proto__ key', JSON.parse(`{"__proto__": {"traceparent": "${valid}"}}`)],
    ['an inherited traceparent', Object.create({ traceparent: valid })],
    ['a class instance', new CarrierClass(valid)],
    ['a throwing getter', hostileGetter],
    ['a throwing proxy', hostileProxy],
  ];

  it.each(malformed)('returns ROOT_TELEMETRY for %s', (_label, carrier) => {
    expect(extractTelemetryContext(carrier)).toBe(ROOT_TELEMETRY);
  });

  it('starts a fresh root span from a malformed carrier', () => {
    extractTelemetryContext({ traceparent: 42 }).startSpan({ name: 'fresh' }, () => undefined);
    expect(telemetry.spans()[0]?.parentSpanId).toBeUndefined();
  });

  it('rejects a prototype-polluting carrier even with a valid traceparent, without polluting', () => {
    const carrier: unknown = JSON.parse(`{"__proto__": {"polluted": true}, "traceparent": "${valid}"}`);
    expect(extractTelemetryContext(carrier)).toBe(ROOT_TELEMETRY);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('accepts a null-prototype carrier', () => {
    const carrier = Object.assign(Object.create(null) as object, { traceparent: valid });
    expect(extractTelemetryContext(carrier).spanId).toBe(SPAN_ID);
  });
});
