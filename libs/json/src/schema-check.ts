import type { z } from 'zod';

/** Whether a value is one a schema accepts. */
export type SchemaCheck = (value: unknown) => boolean;

type AnySchema = z.core.$ZodType;

/** One compiled check per schema object, for the life of the schema. */
const compiled = new WeakMap<AnySchema, SchemaCheck>();

/**
 * The same answer as `schema.safeParse(value).success`, compiled once from the schema itself: for the kinds a wire
 * contract is made of (objects, arrays, strings, numbers, booleans, null, literals, enums, unions, discriminated
 * unions, optional and nullable, with their length and range checks) a plain function that reads the value and
 * builds nothing, where zod's parse builds its output (a copy of every object and array) and a result for each node.
 * Any other node (a refinement, a format, a transform, a record, a lazy schema…) is asked to zod itself, so the
 * answer never differs, only its cost: a check of a value that is sent on and not parsed (a streamed event, a
 * model's chunk read field by field) pays for reading, not for copying.
 */
export function schemaCheck(schema: AnySchema): SchemaCheck {
  let check = compiled.get(schema);
  if (check === undefined) {
    check = compile(schema);
    compiled.set(schema, check);
  }
  return check;
}

function compile(schema: AnySchema): SchemaCheck {
  return compileNative(schema) ?? ((value) => zodAccepts(schema, value));
}

function zodAccepts(schema: AnySchema, value: unknown): boolean {
  return (schema as unknown as z.ZodType).safeParse(value).success;
}

/** Lengths and ranges as zod checks them; undefined for any other check (a refinement, a format…). */
type Bound = (value: number) => boolean;

function bounds(schema: AnySchema, kinds: 'length' | 'number'): Bound[] | undefined {
  const result: Bound[] = [];
  for (const check of schema._zod.def.checks ?? []) {
    const def = check._zod.def as { check: string } & Record<string, unknown>;
    if (kinds === 'length' && def.check === 'min_length' && typeof def['minimum'] === 'number') {
      const minimum = def['minimum'];
      result.push((length) => length >= minimum);
    } else if (kinds === 'length' && def.check === 'max_length' && typeof def['maximum'] === 'number') {
      const maximum = def['maximum'];
      result.push((length) => length <= maximum);
    } else if (kinds === 'length' && def.check === 'length_equals' && typeof def['length'] === 'number') {
      const length = def['length'];
      result.push((actual) => actual === length);
    } else if (kinds === 'number' && def.check === 'number_format' && def['format'] === 'safeint') {
      result.push(Number.isSafeInteger);
    } else if (kinds === 'number' && (def.check === 'greater_than' || def.check === 'less_than')) {
      const limit = def['value'];
      if (typeof limit !== 'number') return undefined;
      const inclusive = def['inclusive'] === true;
      if (def.check === 'greater_than') result.push(inclusive ? (n) => n >= limit : (n) => n > limit);
      else result.push(inclusive ? (n) => n <= limit : (n) => n < limit);
    } else {
      return undefined;
    }
  }
  return result;
}

function within(value: number, checks: readonly Bound[]): boolean {
  for (const check of checks) if (!check(value)) return false;
  return true;
}

/** A plain check for the kinds listed in `schemaCheck`, or undefined to ask zod. */
function compileNative(schema: AnySchema): SchemaCheck | undefined {
  const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
  switch (def.type) {
    case 'string': {
      const checks = bounds(schema, 'length');
      // A format schema (`z.email()`, `z.uuid()`, `z.iso.datetime()`…) carries its check in its own definition.
      if (checks === undefined || def['coerce'] === true || 'format' in def || 'check' in def) return undefined;
      return (value) => typeof value === 'string' && within(value.length, checks);
    }
    case 'number': {
      const checks = bounds(schema, 'number');
      if (checks === undefined || def['coerce'] === true) return undefined;
      // `z.int()` is a number whose own definition is its format check; other formats (`z.int32()`…) go to zod.
      if ('format' in def || 'check' in def) {
        if (def['format'] !== 'safeint' || def['check'] !== 'number_format') return undefined;
        checks.unshift(Number.isSafeInteger);
      }
      return (value) => typeof value === 'number' && Number.isFinite(value) && within(value, checks);
    }
    case 'boolean':
      if (def.checks?.length || def['coerce'] === true) return undefined;
      return (value) => typeof value === 'boolean';
    case 'null':
      return def.checks?.length ? undefined : (value) => value === null;
    case 'undefined':
      return def.checks?.length ? undefined : (value) => value === undefined;
    case 'unknown':
    case 'any':
      return def.checks?.length ? undefined : () => true;
    case 'literal': {
      const values = def['values'];
      if (def.checks?.length || !Array.isArray(values)) return undefined;
      return (value) => values.includes(value);
    }
    case 'enum': {
      const entries: unknown[] = Object.values((def['entries'] ?? {}) as Record<string, unknown>);
      // Numeric enums hold reverse mappings that zod leaves out; only plain string enums are compiled.
      if (def.checks?.length || !entries.every((entry) => typeof entry === 'string')) return undefined;
      const names = new Set<unknown>(entries);
      return (value) => names.has(value);
    }
    case 'optional':
    case 'nullable': {
      if (def.checks?.length) return undefined;
      const inner = compile(def['innerType'] as AnySchema);
      const empty = def.type === 'optional' ? undefined : null;
      return (value) => value === empty || inner(value);
    }
    case 'array': {
      const checks = bounds(schema, 'length');
      if (checks === undefined) return undefined;
      const element = compile(def['element'] as AnySchema);
      return (value) => Array.isArray(value) && within(value.length, checks) && value.every((item) => element(item));
    }
    case 'object':
      return compileObject(def);
    case 'union':
      return compileUnion(def);
    default:
      return undefined;
  }
}

/**
 * Whether a key may be missing, by zod's rule (a missing key is not one holding `undefined`): never when its schema
 * is not optional on input; always when it is optional on output too; otherwise (a default) when the schema accepts
 * `undefined`.
 */
function absentAccepted(field: AnySchema, check: SchemaCheck): () => boolean {
  if (field._zod.optin === undefined) return () => false;
  if (field._zod.optout === 'optional') return () => true;
  return () => check(undefined);
}

/**
 * An object: each named key as `absentAccepted` says when missing, else checked; keys the shape does not name are
 * accepted (zod strips them), refused by a strict object, and asked to zod under any other catch-all.
 */
function compileObject(def: Record<string, unknown>): SchemaCheck | undefined {
  if ((def['checks'] as unknown[] | undefined)?.length) return undefined;
  const catchall = def['catchall'] as AnySchema | undefined;
  const catchallType = catchall?._zod.def.type;
  if (catchall !== undefined && catchallType !== 'never' && catchallType !== 'unknown') return undefined;
  const strict = catchallType === 'never';
  const shape = def['shape'] as Record<string, AnySchema>;
  const fields = Object.entries(shape).map(([key, field]) => {
    const check = compile(field);
    return { key, check, absent: absentAccepted(field, check) };
  });
  const known = new Set(Object.keys(shape));
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
    const object = value as Record<string, unknown>;
    for (const { key, check, absent } of fields) {
      if (!(key in object)) {
        if (!absent()) return false;
      } else if (!check(object[key])) {
        return false;
      }
    }
    if (strict) for (const key in object) if (!known.has(key)) return false;
    return true;
  };
}

/**
 * Any option accepting is zod's answer for a union. A discriminated union's options have distinct values at the
 * discriminator (zod refuses to build one otherwise), so only the option the value names can accept it: it is looked
 * up, as zod does, instead of tried in turn.
 */
function compileUnion(def: Record<string, unknown>): SchemaCheck | undefined {
  if ((def['checks'] as unknown[] | undefined)?.length || def['unionFallback'] === true) return undefined;
  const options = def['options'] as AnySchema[];
  const checks = options.map(compile);
  const discriminator = def['discriminator'];
  if (typeof discriminator === 'string') {
    const byValue = new Map<unknown, SchemaCheck>();
    const distinct = options.every((option, index) => {
      const values = option._zod.propValues?.[discriminator];
      if (values === undefined) return false;
      for (const value of values) {
        if (byValue.has(value)) return false;
        byValue.set(value, checks[index] as SchemaCheck);
      }
      return true;
    });
    if (distinct) {
      return (value) => {
        if (typeof value !== 'object' || value === null) return false;
        const check = byValue.get((value as Record<string, unknown>)[discriminator]);
        return check !== undefined && check(value);
      };
    }
    return undefined;
  }
  // Not inclusive (`z.xor`): exactly one option may accept; left to zod.
  if (def['inclusive'] === false) return undefined;
  return (value) => checks.some((check) => check(value));
}
