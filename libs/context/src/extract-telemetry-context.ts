import { ROOT_TELEMETRY, OtelTelemetryContext } from './otel-telemetry';
import type { TelemetryContext, TraceCarrier } from './telemetry-types';
import { extractRemoteParent } from './w3c-propagation';

// W3C: traceparent is 55 chars for version 00; tracestate may be truncated by vendors past 512.
const MAX_TRACEPARENT_LENGTH = 128;
const MAX_TRACESTATE_LENGTH = 512;

/** Rebuilds a parent from a carrier. Missing, malformed, wrong-typed or prototype-polluting input → ROOT_TELEMETRY (never throws). */
export function extractTelemetryContext(carrier: unknown): TelemetryContext {
  try {
    const checked = toCheckedCarrier(carrier);
    if (checked === undefined) return ROOT_TELEMETRY;
    const parent = extractRemoteParent(checked);
    return parent === undefined ? ROOT_TELEMETRY : new OtelTelemetryContext(parent);
  } catch {
    // Proxies and exotic objects can throw from any trap; untrusted input must never break a request.
    return ROOT_TELEMETRY;
  }
}

/** Copies the two fields into a fresh null-prototype object, accepting only a plain object of own string data properties. */
function toCheckedCarrier(value: unknown): TraceCarrier | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return undefined;
  if (Object.hasOwn(value, '__proto__')) return undefined;
  // Most calls carry no trace: nothing more to read then.
  const traceparent = ownString(value, 'traceparent', MAX_TRACEPARENT_LENGTH);
  if (traceparent === null || traceparent === undefined) return undefined;
  const tracestate = ownString(value, 'tracestate', MAX_TRACESTATE_LENGTH);
  if (tracestate === null) return undefined;
  const carrier: TraceCarrier = Object.create(null) as TraceCarrier;
  carrier.traceparent = traceparent;
  if (tracestate !== undefined) carrier.tracestate = tracestate;
  return carrier;
}

/** undefined when absent, null when present but not an own string data property within the limit. */
function ownString(value: object, key: string, maxLength: number): string | undefined | null {
  // Checked first: a descriptor is an object made per read, and most carriers are empty.
  if (!Object.hasOwn(value, key)) return undefined;
  const descriptor = Object.getOwnPropertyDescriptor(value, key);
  if (descriptor === undefined) return undefined;
  if (!('value' in descriptor) || typeof descriptor.value !== 'string') return null;
  return descriptor.value.length <= maxLength ? descriptor.value : null;
}
