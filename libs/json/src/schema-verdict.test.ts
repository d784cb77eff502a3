import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { generatedSchemas } from '../test/generated-schemas';
import { SCHEMA_VERDICTS, agreesWithZod, zodVerdict } from '../test/zod-agreement';
import { schemaVerdict } from './schema-check';

/** `[hole, last]`: an array of two elements whose first was never set. */
function withHole(last: unknown): unknown[] {
  const array: unknown[] = [];
  array[1] = last;
  return array;
}

describe('schemaVerdict says what zod’s parse would do with a value', () => {
  it('refuse it, change it, or give back its equal: on generated schemas and values near them', () => {
    fc.assert(
      fc.property(generatedSchemas, ({ schema }) => agreesWithZod(schema, 60)),
      { numRuns: 400 },
    );
  });

  it('a value from JSON is unchanged by a contract without defaults, transforms or unknown keys', () => {
    const contract = z.object({ id: z.number(), text: z.string(), tags: z.array(z.string()).optional() });
    const value = JSON.parse('{"id":1,"text":"x","tags":["a"]}');
    expect(schemaVerdict(contract)(value)).toBe(SCHEMA_VERDICTS.unchanged);
    expect(zodVerdict(contract, value)).toBe('unchanged');
  });

  it('is changed by an unknown key (stripped), keys out of the shape’s order, a default, or a hole', () => {
    const contract = z.object({ id: z.number(), text: z.string() });
    expect(schemaVerdict(contract)({ id: 1, text: 'x', extra: 1 })).toBe(SCHEMA_VERDICTS.changed);
    expect(schemaVerdict(contract)({ text: 'x', id: 1 })).toBe(SCHEMA_VERDICTS.changed);
    expect(schemaVerdict(z.object({ id: z.number().default(1) }))({})).toBe(SCHEMA_VERDICTS.changed);
    expect(schemaVerdict(z.array(z.unknown()))(withHole(1))).toBe(SCHEMA_VERDICTS.changed);
    expect(schemaVerdict(z.object({ id: z.number() }).loose())({ id: 1, extra: 1 })).toBe(SCHEMA_VERDICTS.unchanged);
  });

  it('refuses what zod refuses, a hole where an element is required among it', () => {
    expect(schemaVerdict(z.array(z.string()))(withHole('a'))).toBe(SCHEMA_VERDICTS.refused);
    expect(schemaVerdict(z.object({ id: z.number() }).strict())({ id: 1, extra: 1 })).toBe(SCHEMA_VERDICTS.refused);
  });
});
