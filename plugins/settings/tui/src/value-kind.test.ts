import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { JsonObject } from '@pi/plugin-api';
import { formatValue, parseTyped, valueKind } from './value-kind';

const kindOf = (schema: z.ZodType) => valueKind(z.toJSONSchema(schema) as JsonObject);

describe('how /settings edits a value, from its JSON Schema', () => {
  it('offers the options of an enum and true/false for a boolean', () => {
    expect(kindOf(z.enum(['dark', 'light']))).toEqual({ kind: 'choice', options: ['dark', 'light'] });
    expect(kindOf(z.boolean())).toEqual({ kind: 'choice', options: [true, false] });
  });

  it('types numbers, whole numbers and strings, and anything else as JSON', () => {
    expect(kindOf(z.number())).toEqual({ kind: 'number', integer: false });
    expect(kindOf(z.int().min(1))).toEqual({ kind: 'number', integer: true });
    expect(kindOf(z.string())).toEqual({ kind: 'string' });
    expect(kindOf(z.object({ provider: z.string() }).nullable())).toEqual({ kind: 'json' });
  });

  it('parses typed text by kind and says what is wrong with bad text', () => {
    expect(parseTyped({ kind: 'number', integer: true }, ' 4 ')).toEqual({ value: 4 });
    expect(parseTyped({ kind: 'number', integer: true }, '4.5')).toEqual({ problem: '"4.5" is not a whole number' });
    expect(parseTyped({ kind: 'number', integer: false }, 'wide')).toEqual({ problem: '"wide" is not a number' });
    expect(parseTyped({ kind: 'number', integer: false }, '')).toEqual({ problem: '"" is not a number' });
    expect(parseTyped({ kind: 'string' }, ' as typed ')).toEqual({ value: ' as typed ' });
    expect(parseTyped({ kind: 'json' }, '{"provider":"x"}')).toEqual({ value: { provider: 'x' } });
    expect(parseTyped({ kind: 'json' }, '{')).toEqual({ problem: 'Not valid JSON' });
  });

  it('shows strings bare and other values as JSON', () => {
    expect(formatValue('dark')).toBe('dark');
    expect(formatValue(null)).toBe('null');
    expect(formatValue({ a: 1 })).toBe('{"a":1}');
  });
});
