import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toJsonSchema } from '@pi/remote';
import { summarizeSchema } from './schema-summary';

const summary = (schema: z.ZodType) => summarizeSchema(toJsonSchema(schema, 'output'));

describe('schema summaries', () => {
  it('says a schema in a few words', () => {
    expect(summary(z.string())).toBe('string');
    expect(summary(z.number().int())).toBe('integer');
    expect(summary(z.enum(['off', 'low']))).toBe('"off" | "low"');
    expect(summary(z.string().nullable())).toBe('string | null');
    expect(summary(z.object({ a: z.string(), b: z.number().optional() }))).toBe('{ a, b? }');
    expect(summary(z.array(z.object({ text: z.string() })))).toBe('{ text }[]');
    expect(summary(z.array(z.union([z.string(), z.number()])))).toBe('(string | number)[]');
    expect(summary(z.record(z.string(), z.boolean()))).toBe('{ [key]: boolean }');
    expect(summary(z.unknown())).toBe('any');
  });

  it("names a union's discriminators and follows a top-level recursive reference one level", () => {
    const event = z.discriminatedUnion('type', [
      z.object({ type: z.literal('added'), text: z.string() }),
      z.object({ type: z.literal('cleared') }),
    ]);
    expect(summary(event)).toBe('{ type: "added", text } | { type: "cleared" }');
    expect(summary(z.json())).toBe('string | number | boolean | null | …[] | { [key]: … }');
  });
});
