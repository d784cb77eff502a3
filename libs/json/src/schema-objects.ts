import type { z } from 'zod';
import { CHANGED, REFUSED, UNCHANGED, type Compile, type Node, type SchemaVerdict } from './schema-nodes';

type AnySchema = z.core.$ZodType;

interface Field {
  readonly key: string;
  readonly node: Node;
  /** The answer for the key missing from the value. */
  readonly absent: () => SchemaVerdict;
}

/**
 * An object schema as zod reads it: each key of the shape by `key in value` and `value[key]` (zod never reads a
 * `__proto__` key of a shape), then the keys the shape does not name, which zod strips, refuses (a strict object) or
 * keeps (a loose one); any other catch-all is asked to zod. zod's output is a new object holding the shape's keys
 * that are present, in the shape's order, then the kept ones in the value's order.
 */
export function compileObject(def: Record<string, unknown>, verdict: boolean, compile: Compile): Node | undefined {
  if ((def['checks'] as unknown[] | undefined)?.length) return undefined;
  const catchall = def['catchall'] as AnySchema | undefined;
  const catchallType = catchall?._zod.def.type;
  if (catchall !== undefined && catchallType !== 'never' && catchallType !== 'unknown') return undefined;
  const shape = def['shape'] as Record<string, AnySchema>;
  if (Object.getOwnPropertySymbols(shape).length > 0) return undefined;
  const strict = catchallType === 'never';
  const known = new Set(Object.keys(shape));
  const fields: Field[] = Object.entries(shape)
    .filter(([key]) => key !== '__proto__')
    .map(([key, field]) => {
      const node = compile(field, verdict);
      return { key, node, absent: absentAnswer(field, node) };
    });
  const order = verdict ? outputOrder(fields) : undefined;
  const unchanged =
    order === undefined ? undefined : catchallType === 'unknown' ? keptKeysInOrder(order) : ownKeysInOrder(order);
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return REFUSED;
    const object = value as Record<string, unknown>;
    let answer: SchemaVerdict = UNCHANGED;
    let present = 0;
    for (const field of fields) {
      let result: SchemaVerdict;
      if (field.key in object) {
        present++;
        result = field.node(object[field.key]);
      } else {
        result = field.absent();
      }
      if (result === REFUSED) return REFUSED;
      if (result < answer) answer = result;
    }
    if (strict) for (const key in object) if (!known.has(key)) return REFUSED;
    if (unchanged !== undefined && answer === UNCHANGED && !unchanged(object, present)) return CHANGED;
    return answer;
  };
}

/**
 * A key missing from the value, by zod's rule (a missing key is not one holding `undefined`): refused when its schema
 * is not optional on input; accepted and left out when it is optional on input and output; otherwise (a default…)
 * the schema's answer for `undefined`, where an output other than `undefined`, or a default's, adds the key.
 */
function absentAnswer(field: AnySchema, node: Node): () => SchemaVerdict {
  const { optin, optout } = field._zod;
  if (optin === undefined) return () => REFUSED;
  if (optin === 'optional' && optout === 'optional') return () => UNCHANGED;
  return () => {
    const answer = node(undefined);
    // Optional on output, a refusal of the missing key is ignored and nothing added.
    if (answer === REFUSED) return optout === 'optional' ? UNCHANGED : REFUSED;
    return answer === CHANGED || (optin === 'defaulted' && optout !== 'optional') ? CHANGED : UNCHANGED;
  };
}

/** Each key of the shape at its place among the output's keys (array-index keys come first, ascending, in any object). */
function outputOrder(fields: readonly Field[]): ReadonlyMap<string, number> {
  const probe: Record<string, true> = {};
  for (const { key } of fields) probe[key] = true;
  return new Map(Object.keys(probe).map((key, index) => [key, index]));
}

/**
 * Unchanged by a stripping or strict object: a plain object whose own keys are exactly the shape's keys that were
 * present (`present`, counted by `in`, which also sees inherited ones), in the output's order.
 */
function ownKeysInOrder(order: ReadonlyMap<string, number>): (object: object, present: number) => boolean {
  return (object, present) => {
    if (Object.getPrototypeOf(object) !== Object.prototype) return false;
    let last = -1;
    let seen = 0;
    for (const key in object) {
      const at = order.get(key);
      if (at === undefined || at <= last) return false;
      last = at;
      seen++;
    }
    return seen === present;
  };
}

/**
 * Unchanged by a loose object: the shape's keys in the output's order, then the others (array-index keys come first
 * in both, so they are in the same places), and no own `__proto__` key, which zod never copies.
 */
function keptKeysInOrder(order: ReadonlyMap<string, number>): (object: object, present: number) => boolean {
  return (object, present) => {
    if (Object.getPrototypeOf(object) !== Object.prototype) return false;
    let last = -1;
    let seen = 0;
    let kept = false;
    for (const key in object) {
      const at = order.get(key);
      if (at === undefined) {
        if (key === '__proto__') return false;
        if (!isArrayIndex(key)) kept = true;
      } else {
        if (kept || at <= last) return false;
        last = at;
        seen++;
      }
    }
    return seen === present;
  };
}

function isArrayIndex(key: string): boolean {
  const index = Number(key);
  return index >>> 0 === index && index !== 2 ** 32 - 1 && String(index) === key;
}
