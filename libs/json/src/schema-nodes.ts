import type { z } from 'zod';

/** What zod's parse of a value does, ordered so that a container's answer is the least of its parts'. */
export const SCHEMA_VERDICTS = {
  /** zod refuses the value. */
  refused: 0,
  /** zod accepts it, and its output differs from it (or is another object no one compared). */
  changed: 1,
  /** zod accepts it, and its output equals it. */
  unchanged: 2,
} as const;

export type SchemaVerdict = (typeof SCHEMA_VERDICTS)[keyof typeof SCHEMA_VERDICTS];

export const REFUSED = SCHEMA_VERDICTS.refused;
export const CHANGED = SCHEMA_VERDICTS.changed;
export const UNCHANGED = SCHEMA_VERDICTS.unchanged;

/**
 * One compiled schema node. A node compiled for checks only answers `refused` or anything else; one compiled for
 * verdicts also tells `changed` from `unchanged`.
 */
export type Node = (value: unknown) => SchemaVerdict;

/** Compiles a node (natively, or as a call to zod), cached per schema and kind of answer. */
export type Compile = (schema: z.core.$ZodType, verdict: boolean) => Node;

/**
 * Whether two values are equal in the sense of `schemaVerdict`: leaves by `Object.is`; plain objects by their own
 * enumerable keys, in order, and their values; plain arrays by length and elements (a hole equals only a hole);
 * anything else only to itself.
 */
export function sameStructure(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const prototype = Object.getPrototypeOf(a);
  if (prototype !== Object.getPrototypeOf(b)) return false;
  if (prototype === Array.prototype) {
    const left = a as unknown[];
    const right = b as unknown[];
    if (left.length !== right.length) return false;
    for (let index = 0; index < left.length; index++) {
      if (index in left !== index in right || !sameStructure(left[index], right[index])) return false;
    }
    return true;
  }
  if (prototype !== Object.prototype) return false;
  const keys = Object.keys(a);
  const other = Object.keys(b);
  if (keys.length !== other.length) return false;
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index] as string;
    if (key !== other[index]) return false;
    if (!sameStructure((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}
