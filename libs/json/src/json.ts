import { err, ok, type Result } from 'neverthrow';

export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** Why a value is not strict JSON; each kind is a distinct, stable reason code. */
export const JSON_VIOLATIONS = {
  undefined: 'undefined',
  function: 'function',
  symbol: 'symbol',
  bigint: 'bigint',
  non_finite_number: 'non_finite_number',
  date: 'date',
  map: 'map',
  set: 'set',
  class_instance: 'class_instance',
  sparse_array: 'sparse_array',
  cycle: 'cycle',
  reserved_key: 'reserved_key',
  too_deep: 'too_deep',
} as const;

export type JsonViolationKind = (typeof JSON_VIOLATIONS)[keyof typeof JSON_VIOLATIONS];

export interface JsonViolation {
  kind: JsonViolationKind;
  /** Where in the value, as `$.a[0].b`. */
  path: string;
}

const MAX_DEPTH = 128;

/**
 * Checks that a value is strict JSON: plain objects and arrays of strings, finite numbers, booleans and null.
 * Object properties that are `undefined` are rejected too, so what is sent is exactly what arrives.
 */
export function checkJson(value: unknown, path = '$'): Result<JsonValue, JsonViolation> {
  const violation = findViolation(value, path);
  return violation === undefined ? ok(value as JsonValue) : err(violation);
}

export function isJsonValue(value: unknown): value is JsonValue {
  return findViolation(value, '$') === undefined;
}

/**
 * A violation found below the top: its kind, and the path's segments from the violation up (`.key`, `[index]`).
 * The path is only spelled out once something is found: every call checks its arguments and its result, and a
 * string per visited node was most of the check's cost.
 */
interface Found {
  readonly kind: JsonViolationKind;
  readonly segments: string[];
}

function findViolation(value: unknown, path: string): JsonViolation | undefined {
  const found = visit(value, 0, []);
  return found === undefined ? undefined : { kind: found.kind, path: path + found.segments.reverse().join('') };
}

/** `ancestors`: the objects above this one, to tell a cycle from a value shared by two branches. */
function visit(value: unknown, depth: number, ancestors: object[]): Found | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : here('non_finite_number');
    case 'undefined':
      return here('undefined');
    case 'function':
      return here('function');
    case 'symbol':
      return here('symbol');
    case 'bigint':
      return here('bigint');
  }
  if (value === null) return undefined;
  if (depth >= MAX_DEPTH) return here('too_deep');
  const object = value as object;
  if (ancestors.includes(object)) return here('cycle');
  ancestors.push(object);
  const found = Array.isArray(object)
    ? arrayViolation(object, depth, ancestors)
    : objectViolation(object, depth, ancestors);
  ancestors.pop();
  return found;
}

function here(kind: JsonViolationKind): Found {
  return { kind, segments: [] };
}

function arrayViolation(array: unknown[], depth: number, ancestors: object[]): Found | undefined {
  if (Object.getPrototypeOf(array) !== Array.prototype) return here('class_instance');
  for (let index = 0; index < array.length; index++) {
    const found = index in array ? visit(array[index], depth + 1, ancestors) : here('sparse_array');
    if (found !== undefined) {
      found.segments.push(`[${index}]`);
      return found;
    }
  }
  return undefined;
}

function objectViolation(object: object, depth: number, ancestors: object[]): Found | undefined {
  const kind = nonPlainKind(object);
  if (kind !== undefined) return here(kind);
  for (const key of Object.keys(object)) {
    const found = isReservedKey(key)
      ? here('reserved_key')
      : visit((object as Record<string, unknown>)[key], depth + 1, ancestors);
    if (found !== undefined) {
      found.segments.push(`.${key}`);
      return found;
    }
  }
  if (Object.getOwnPropertySymbols(object).length > 0) return here('symbol');
  return undefined;
}

/** Keys that would reach a prototype when copied by assignment; compared directly, for every key checked. */
function isReservedKey(key: string): boolean {
  return key === '__proto__' || key === 'constructor' || key === 'prototype';
}

function nonPlainKind(object: object): JsonViolationKind | undefined {
  const prototype = Object.getPrototypeOf(object);
  // A plain object's chain holds no Date, Map or Set, so the common case needs none of the instanceof walks below.
  if (prototype === Object.prototype || prototype === null) return undefined;
  if (object instanceof Date) return 'date';
  if (object instanceof Map) return 'map';
  if (object instanceof Set) return 'set';
  return 'class_instance';
}

/**
 * A deep, frozen copy: what every reader of replicated state gets, so no reader can change another's value. Made in
 * one walk that copies and freezes each object and array; strings are immutable and shared, so detaching a long text
 * (a streamed answer's checkpoint) copies none of it, where `structuredClone` copied every character and a second
 * walk froze the copy. A node that is not a plain object or array (not JSON) is cloned as `structuredClone` would.
 */
export function detachJson<T extends JsonValue>(value: T): T {
  return frozenCopy(value) as T;
}

function frozenCopy(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return Object.freeze(value.map(frozenCopy));
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return deepFreeze(structuredClone(value));
  const copy: Record<string, unknown> = {};
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const child = frozenCopy((value as Record<string, unknown>)[key]);
    // Assigning `__proto__` would set the copy's prototype instead of a key (checked JSON has no such key).
    if (key === '__proto__') Object.defineProperty(copy, key, { value: child, enumerable: true, writable: true });
    else copy[key] = child;
  }
  return Object.freeze(copy);
}

/**
 * A deep copy of a JSON value as plain, unfrozen objects and arrays (keys in the same order, strings shared): what a
 * parse of it would hand back, for a value whose holder may still change it.
 */
export function copyJson<T extends JsonValue>(value: T): T {
  return plainCopy(value) as T;
}

function plainCopy(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(plainCopy);
  const copy: Record<string, unknown> = {};
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const child = plainCopy((value as Record<string, unknown>)[key]);
    // Assigning `__proto__` would set the copy's prototype instead of a key.
    if (key === '__proto__') Object.defineProperty(copy, key, { value: child, enumerable: true, writable: true });
    else copy[key] = child;
  }
  return copy;
}

/** Freezes a value that nobody else holds (one just decoded from a frame), without copying it. */
export function freezeJson<T extends JsonValue>(value: T): T {
  return deepFreeze(value);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** Structural equality of two JSON values (key order does not matter). */
export function jsonEquals(a: JsonValue, b: JsonValue): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as JsonValue[];
    return a.length === other.length && a.every((item, index) => jsonEquals(item, other[index] as JsonValue));
  }
  const left = a as JsonObject;
  const right = b as JsonObject;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  return keys.every((key) => Object.hasOwn(right, key) && jsonEquals(left[key] as JsonValue, right[key] as JsonValue));
}

const VIOLATION_PHRASES: Record<JsonViolationKind, string> = {
  undefined: 'is undefined',
  function: 'is a function',
  symbol: 'is or holds a symbol',
  bigint: 'is a bigint',
  non_finite_number: 'is a non-finite number',
  date: 'is a Date instance, not a plain value',
  map: 'is a Map instance, not a plain object',
  set: 'is a Set instance, not an array',
  class_instance: 'is a class instance, not a plain object',
  sparse_array: 'is a hole in an array',
  cycle: 'is a circular reference',
  reserved_key: 'is a reserved key (__proto__, constructor or prototype)',
  too_deep: 'is nested too deeply',
};

/** A violation as one readable phrase, for messages such as a manifest's. */
export function describeJsonViolation(violation: JsonViolation): string {
  return `${violation.path} ${VIOLATION_PHRASES[violation.kind]}`;
}
