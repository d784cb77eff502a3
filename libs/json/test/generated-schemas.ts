import fc from 'fast-check';
import { z } from 'zod';

/** A generated schema that prints as the code that built it when a property fails. */
export interface Built {
  readonly schema: z.ZodType;
  readonly code: string;
}

function built(schema: z.ZodType, code: string): Built {
  return { schema, code, [fc.toStringMethod]: () => code } as Built;
}

/** Leaves of every kind schemaCheck compiles, and some it leaves to zod (formats, overwrites, refinements). */
const leaves: fc.Arbitrary<Built> = fc.constantFrom(
  built(z.string(), 'z.string()'),
  built(z.string().min(1).max(3), 'z.string().min(1).max(3)'),
  built(z.number(), 'z.number()'),
  built(z.int(), 'z.int()'),
  built(z.number().gt(-1).lte(2), 'z.number().gt(-1).lte(2)'),
  built(z.boolean(), 'z.boolean()'),
  built(z.null(), 'z.null()'),
  built(z.unknown(), 'z.unknown()'),
  built(z.literal(['a', 1]), "z.literal(['a', 1])"),
  built(z.enum(['x', 'X']), "z.enum(['x', 'X'])"),
  built(z.string().trim(), 'z.string().trim()'),
  built(z.string().toUpperCase(), 'z.string().toUpperCase()'),
  built(z.string().regex(/x/), 'z.string().regex(/x/)'),
  built(
    z.number().refine((n) => n !== 1),
    'z.number().refine((n) => n !== 1)',
  ),
  built(z.record(z.string(), z.number()), 'z.record(z.string(), z.number())'),
);

/** Wrappers around a schema, with defaults and transforms among them. */
function wrapped({ schema, code }: Built): fc.Arbitrary<Built> {
  return fc.constantFrom(
    built(schema.optional(), `${code}.optional()`),
    built(schema.nullable(), `${code}.nullable()`),
    built(schema.nullish(), `${code}.nullish()`),
    built(z.exactOptional(schema), `z.exactOptional(${code})`),
    built(schema.default('d' as never), `${code}.default('d')`),
    built(schema.default('d' as never).optional(), `${code}.default('d').optional()`),
    built(
      schema.transform((value) => value),
      `${code}.transform((value) => value)`,
    ),
    built(schema.array(), `${code}.array()`),
    built(schema.array().max(2), `${code}.array().max(2)`),
  );
}

/** Keys a generated shape may use: plain ones, array-index ones (they come first in any object), an inherited name. */
const shapeKeys = fc.uniqueArray(fc.constantFrom('a', 'b', 'type', '1', '0', 'toString', '__proto__'), {
  maxLength: 4,
});

function objectOf(keys: readonly string[], fields: readonly Built[], kind: 'strip' | 'strict' | 'loose'): Built {
  const entries = keys.map((key, index) => [key, fields[index] as Built] as const);
  const shape: Record<string, z.ZodType> = {};
  // Defined, not assigned, so that a `__proto__` key is a key of the shape.
  for (const [key, field] of entries) Object.defineProperty(shape, key, { value: field.schema, enumerable: true });
  const object = z.object(shape);
  const schema = kind === 'strict' ? object.strict() : kind === 'loose' ? object.loose() : object;
  const code = `z.object({ ${entries.map(([key, field]) => `${JSON.stringify(key)}: ${field.code}`).join(', ')} })`;
  return built(schema, kind === 'strip' ? code : `${code}.${kind}()`);
}

/** Schemas built from the leaves: wrappers, arrays, objects of each kind, unions. */
export const generatedSchemas: fc.Arbitrary<Built> = fc.letrec<{ schema: Built }>((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaves,
    tie('schema').chain(wrapped),
    fc
      .tuple(
        shapeKeys,
        fc.array(tie('schema'), { minLength: 4, maxLength: 4 }),
        fc.constantFrom('strip' as const, 'strict' as const, 'loose' as const),
      )
      .map(([keys, fields, kind]) => objectOf(keys, fields, kind)),
    fc
      .array(tie('schema'), { minLength: 2, maxLength: 3 })
      .map((options) =>
        built(
          z.union(options.map((option) => option.schema) as [z.ZodType, z.ZodType]),
          `z.union([${options.map((option) => option.code).join(', ')}])`,
        ),
      ),
  ),
})).schema;
