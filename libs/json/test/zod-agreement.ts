import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { expect } from 'vitest';
import type { z } from 'zod';
import { schemaCheck, schemaVerdict } from '../src/schema-check';
import { SCHEMA_VERDICTS, type SchemaVerdict } from '../src/schema-nodes';

type AnySchema = z.core.$ZodType;

/** Values of every kind, for any node: what a broken peer could send. */
export const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, undefined, true, false, 0, -0, 1.5, -1, NaN, Infinity, '', 'x', 2 ** 53, {}, [], [1]),
  fc.string({ maxLength: 4 }),
  fc.integer({ min: -5, max: 5 }),
);

/** Keys a shape may not name: plain, array-index, inherited from Object.prototype, and `__proto__`. */
const extraKeys = fc.constantFrom('extra', 'type', 'toString', '7', '0', '__proto__');

/** An object with the entries in this order, `__proto__` included as an own key (as JSON.parse makes it). */
function objectOf(entries: ReadonlyArray<readonly [string, unknown]>): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const [key, value] of entries) {
    Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return object;
}

/**
 * Values near what `schema` accepts: mostly its own shape, with junk at any node, keys dropped, set to undefined,
 * added or reordered, holes in arrays, other prototypes, lengths and numbers around the bounds: where a compiled
 * check could disagree with zod.
 */
export function nearly(schema: AnySchema, depth = 0): fc.Arbitrary<unknown> {
  // A recursive schema (a getter in a shape) would be followed for ever: below a few levels, junk.
  if (depth > 4) return junk;
  const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
  const near = (inner: AnySchema) => nearly(inner, depth + 1);
  const own = ((): fc.Arbitrary<unknown> => {
    switch (def.type) {
      case 'string':
        return fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom(' x ', 'X'));
      case 'number':
        return fc.oneof(fc.integer({ min: -3, max: 3 }), fc.double(), fc.constantFrom(2 ** 53 - 1, 2 ** 53, -0));
      case 'literal':
        return fc.constantFrom(...(def['values'] as unknown[]));
      case 'enum':
        return fc.constantFrom(...Object.values(def['entries'] as Record<string, unknown>));
      case 'optional':
      case 'nullable':
      case 'default':
      case 'catch':
        return fc.oneof(fc.constantFrom(undefined, null), near(def['innerType'] as AnySchema));
      case 'pipe':
        return near(def['in'] as AnySchema);
      case 'array':
        return fc.oneof(
          { weight: 4, arbitrary: fc.array(near(def['element'] as AnySchema), { maxLength: 4 }) },
          { weight: 1, arbitrary: fc.sparseArray(near(def['element'] as AnySchema), { maxLength: 4 }) },
        );
      case 'union':
        return fc.oneof(...(def['options'] as AnySchema[]).map(near));
      case 'object':
        return nearObject(def['shape'] as Record<string, AnySchema>, near);
      default:
        return junk;
    }
  })();
  return fc.oneof({ weight: 8, arbitrary: own }, { weight: 1, arbitrary: junk });
}

function nearObject(
  shape: Record<string, AnySchema>,
  near: (field: AnySchema) => fc.Arbitrary<unknown>,
): fc.Arbitrary<unknown> {
  const fields = Object.fromEntries(Object.entries(shape).map(([key, field]) => [key, near(field)]));
  const entries = fc
    .tuple(fc.record(fields, { requiredKeys: [] }), fc.dictionary(extraKeys, junk, { maxKeys: 2 }))
    .map(([object, extra]) => [...Object.entries(object), ...Object.entries(extra)] as Array<[string, unknown]>)
    .map((list) => list.filter(([key], index) => list.findIndex(([other]) => other === key) === index));
  const ordered = entries.chain((list) =>
    fc.oneof(fc.constant(list), fc.shuffledSubarray(list, { minLength: list.length, maxLength: list.length })),
  );
  return fc.oneof(
    { weight: 8, arbitrary: ordered.map(objectOf) },
    {
      weight: 1,
      arbitrary: ordered.map((list) => Object.assign(Object.create(null) as object, objectOf(list))),
    },
    { weight: 1, arbitrary: ordered.map((list) => Object.create(objectOf(list)) as object) },
  );
}

/** Node's strict deep equality, and the same keys in the same order at every level: "equal" as schemaVerdict means it. */
export function equalInOrder(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(a, b) && isDeepStrictEqual(keyOrder(a), keyOrder(b));
}

function keyOrder(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return null;
  if (Array.isArray(value)) return value.map(keyOrder);
  return Object.keys(value).map((key) => [key, keyOrder((value as Record<string, unknown>)[key])]);
}

const NAMES: Record<SchemaVerdict, string> = { 0: 'refused', 1: 'changed', 2: 'unchanged' };

/** What zod does with a value, in schemaVerdict's words. */
export function zodVerdict(schema: AnySchema, value: unknown): string {
  const parsed = (schema as z.ZodType).safeParse(value);
  if (!parsed.success) return 'refused';
  return equalInOrder(parsed.data, value) ? 'unchanged' : 'changed';
}

/** Both compiled answers agree with zod's parse on `runs` values near the schema. */
export function agreesWithZod(schema: AnySchema, runs = 3000, values: fc.Arbitrary<unknown> = nearly(schema)): void {
  const check = schemaCheck(schema);
  const verdict = schemaVerdict(schema);
  fc.assert(
    fc.property(values, (value) => {
      const expected = zodVerdict(schema, value);
      expect(check(value)).toBe(expected !== 'refused');
      expect(NAMES[verdict(value)]).toBe(expected);
    }),
    { numRuns: runs },
  );
}

export { SCHEMA_VERDICTS };
