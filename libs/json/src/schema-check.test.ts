import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { wireEvents as events } from '../test/wire-events';
import { agreesWithZod } from '../test/zod-agreement';
import { schemaCheck } from './schema-check';

describe('a schema compiled to a check gives zod’s answer, and whether zod’s output would equal the value', () => {
  it('for a discriminated union of wire events', () => agreesWithZod(events));

  it('for strings with length bounds and numbers with ranges, open and closed', () => {
    agreesWithZod(z.string().min(1).max(3));
    agreesWithZod(z.string().length(2));
    agreesWithZod(z.number().gt(-1).lt(2));
    agreesWithZod(z.number().min(-1).max(2));
    agreesWithZod(z.number());
  });

  it('for keys that are missing, undefined, optional, nullable or both, and unknown', () => {
    agreesWithZod(
      z.object({
        required: z.string(),
        optional: z.string().optional(),
        nullable: z.string().nullable(),
        nullish: z.string().nullish(),
        optionalThenNullable: z.string().optional().nullable(),
        anything: z.unknown(),
        orUndefined: z.union([z.string(), z.undefined()]),
      }),
    );
  });

  it('for strict, loose and stripping objects, booleans, null and plain unions', () => {
    agreesWithZod(z.object({ a: z.boolean() }).strict());
    agreesWithZod(z.object({ a: z.null() }).loose());
    agreesWithZod(z.object({ a: z.union([z.string(), z.number().int()]) }));
    agreesWithZod(z.array(z.literal(['a', 1])).min(1));
  });

  it('for format schemas that carry their check in their own definition', () => {
    agreesWithZod(z.object({ count: z.int(), small: z.int32(), ratio: z.float32() }));
    agreesWithZod(z.object({ email: z.email(), id: z.uuid(), at: z.iso.datetime(), link: z.url() }));
    expect(schemaCheck(z.int())(1.5)).toBe(false);
    expect(schemaCheck(z.email())('not an address')).toBe(false);
    expect(schemaCheck(z.uuid())('0f8b8c1e-3d2a-4c55-9c1e-2f9e8d7a6b5c')).toBe(true);
  });

  it('for what it leaves to zod: refinements, formats, records, transforms, defaults, catch-alls, xor', () => {
    agreesWithZod(z.object({ a: z.string().refine((text) => text.length % 2 === 0) }));
    agreesWithZod(z.object({ a: z.string().regex(/^x/), b: z.string().default('b') }));
    agreesWithZod(z.object({ a: z.record(z.string(), z.number()), b: z.string().transform((text) => text.length) }));
    agreesWithZod(z.object({ a: z.string() }).catchall(z.number()));
    agreesWithZod(z.xor([z.object({ a: z.string() }), z.object({ b: z.string() })]));
    agreesWithZod(
      z
        .object({ text: z.string(), offset: z.number().int().min(0) })
        .refine((value) => value.offset === value.text.length),
    );
  });

  it('for a recursive schema, a getter in its shape, at every level', () => {
    const tree = z.object({
      name: z.string().min(1),
      get children() {
        return z.array(tree).max(3);
      },
    });
    agreesWithZod(tree);
  });

  it('is compiled once per schema', () => {
    expect(schemaCheck(events)).toBe(schemaCheck(events));
  });
});
