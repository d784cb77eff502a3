import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { generatedSchemas } from '../test/generated-schemas';
import { wireEvents as events } from '../test/wire-events';
import { nearly, zodVerdict } from '../test/zod-agreement';
import { checkJson } from './json';
import { schemaPassThrough, type ValueOrigin } from './schema-pass-through';

type AnySchema = z.core.$ZodType;

/** A value as it arrives in a frame: through JSON text, when it has a JSON form at all. */
function throughJson(value: unknown): unknown {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? value : JSON.parse(text);
  } catch {
    return value;
  }
}

/** Values near the schema, as given and as decoded from a frame, sometimes with a symbol key added to an object. */
function values(schema: AnySchema): fc.Arbitrary<unknown> {
  const near = nearly(schema);
  return fc.oneof(
    near,
    near.map(throughJson),
    // On an array, strict JSON does not look for one (it reads the elements), and equality ignores it.
    near.map((value) =>
      typeof value === 'object' && value !== null && !Array.isArray(value) ? withSymbol(value) : value,
    ),
  );
}

/** A copy of an object with a symbol key added (the generated values share some objects: never change one). */
function withSymbol(object: object): object {
  const descriptors = Object.getOwnPropertyDescriptors(object);
  const symbol = { value: 1, enumerable: true, writable: true, configurable: true };
  return Object.defineProperties(Object.create(Object.getPrototypeOf(object)), {
    ...descriptors,
    [Symbol('s')]: symbol,
  });
}

/** Whatever passes is strict JSON that zod accepts and leaves equal: the exact path would hand it on unchanged. */
function passesOnlyWhatZodLeaves(schema: AnySchema, runs: number): void {
  const passes = { decoded: schemaPassThrough(schema, 'decoded'), any: schemaPassThrough(schema, 'any') };
  fc.assert(
    fc.property(values(schema), fc.constantFrom<ValueOrigin>('decoded', 'any'), (value, origin) => {
      // A decoded value never holds a symbol key: the decoded check does not look for one.
      if (
        origin === 'decoded' &&
        typeof value === 'object' &&
        value !== null &&
        Object.getOwnPropertySymbols(value).length > 0
      )
        return;
      if (passes[origin](value)) {
        expect(checkJson(value).isOk()).toBe(true);
        expect(zodVerdict(schema, value)).toBe('unchanged');
      }
    }),
    { numRuns: runs },
  );
}

/** Every value zod leaves unchanged, decoded from a frame, passes: the pass is the common path, not a rare one. */
function passesEveryDecodedValueZodLeaves(schema: AnySchema, runs = 2000): void {
  const pass = schemaPassThrough(schema, 'decoded');
  const accepted = nearly(schema)
    .map((value) => (schema as z.ZodType).safeParse(value))
    .filter((parsed) => parsed.success)
    .map((parsed) => throughJson(parsed.data));
  fc.assert(
    fc.property(accepted, (value) => {
      if (checkJson(value).isOk() && zodVerdict(schema, value) === 'unchanged') expect(pass(value)).toBe(true);
    }),
    { numRuns: runs },
  );
}

describe('schemaPassThrough passes a value on only where zod would hand back its equal', () => {
  it('on generated schemas, for values as given and as decoded, with and without symbol keys', () => {
    fc.assert(
      fc.property(generatedSchemas, ({ schema }) => passesOnlyWhatZodLeaves(schema, 40)),
      { numRuns: 300 },
    );
  });

  it('on wire-shaped contracts: discriminated unions, nested arrays, optional, nullable and unknown fields', () => {
    passesOnlyWhatZodLeaves(events, 3000);
    passesOnlyWhatZodLeaves(z.object({ id: z.number(), text: z.string(), n: z.number() }).strict(), 1000);
    passesOnlyWhatZodLeaves(z.object({ a: z.string().regex(/x/), b: z.string().default('b') }), 1000);
  });

  it('on a recursive schema, a getter in its shape, written out to where it meets itself', () => {
    const tree = z.object({
      name: z.string(),
      get children() {
        return z.array(tree).optional();
      },
    });
    passesOnlyWhatZodLeaves(tree, 1000);
    passesEveryDecodedValueZodLeaves(tree, 1000);
  });

  it('and passes every decoded value that zod leaves unchanged, for contracts it writes out natively', () => {
    passesEveryDecodedValueZodLeaves(events);
    passesEveryDecodedValueZodLeaves(z.object({ id: z.number(), text: z.string(), n: z.number() }));
    passesEveryDecodedValueZodLeaves(z.union([z.object({ a: z.string() }).strict(), z.array(z.number()).max(2)]));
  });

  it('refuses symbol keys unless the value was decoded, hidden keys, and anything nested deeper than checkJson allows', () => {
    const schema = z.object({ id: z.number(), meta: z.unknown() });
    const withSymbol = { id: 1, meta: null, [Symbol('s')]: 1 };
    expect(schemaPassThrough(schema, 'any')(withSymbol)).toBe(false);
    expect(schemaPassThrough(schema, 'decoded')({ id: 1, meta: null })).toBe(true);
    // zod reads a key that is not enumerable and writes it as one: its output has a key the value does not show.
    const hidden = Object.defineProperty({ id: 1 }, 'meta', { value: null, enumerable: false });
    expect(zodVerdict(schema, hidden)).toBe('changed');
    expect(schemaPassThrough(schema, 'decoded')(hidden)).toBe(false);
    let deep: unknown = 1;
    for (let level = 0; level < 200; level++) deep = [deep];
    expect(schemaPassThrough(schema, 'decoded')({ id: 1, meta: deep })).toBe(false);
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    expect(schemaPassThrough(schema, 'decoded')({ id: 1, meta: cycle })).toBe(false);
  });

  it('is generated once per schema and origin', () => {
    expect(schemaPassThrough(events, 'any')).toBe(schemaPassThrough(events, 'any'));
    expect(schemaPassThrough(events, 'any')).not.toBe(schemaPassThrough(events, 'decoded'));
  });
});
