import { isDeepStrictEqual } from 'node:util';

/** Containers nested deeper than this are refused as `too_deep` (docs/decisions.md, strict JSON). */
const MAX_NESTING = 128;
const RESERVED_KEY = /"(__proto__|constructor|prototype)":/;

/**
 * An oracle for "strict JSON" that shares no code with the guard it checks: a value is strict JSON when a trip
 * through JSON.stringify and JSON.parse gives it back unchanged (Node's strict deep equality: prototypes,
 * holes, symbol keys and `undefined` properties all count), except for what docs/decisions.md decides:
 * `-0` travels as `0`, a null-prototype object arrives as a plain one, and reserved keys and nesting past
 * 128 containers are refused. Returns the value as the peer will decode it, or undefined when it is not JSON.
 */
export function decodedAsJson(value: unknown): { readonly decoded: unknown } | undefined {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return undefined; // a cycle or a bigint
  }
  if (text === undefined || RESERVED_KEY.test(text) || nesting(value) > MAX_NESTING) return undefined;
  const decoded: unknown = JSON.parse(text);
  return isDeepStrictEqual(decoded, asDelivered(value)) ? { decoded } : undefined;
}

/** The value with the two documented normalizations applied, and nothing else touched. */
function asDelivered(value: unknown): unknown {
  if (Object.is(value, -0)) return 0;
  if (Array.isArray(value) && Object.getPrototypeOf(value) === Array.prototype) return value.map(asDelivered);
  if (typeof value !== 'object' || value === null) return value;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  const copy: Record<PropertyKey, unknown> = {};
  for (const key of Reflect.ownKeys(value)) {
    Object.defineProperty(copy, key, {
      value: asDelivered((value as Record<PropertyKey, unknown>)[key]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}

function nesting(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  let deepest = 0;
  for (const child of Object.values(value)) deepest = Math.max(deepest, nesting(child));
  return deepest + 1;
}
