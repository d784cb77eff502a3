import type { z } from 'zod';

/** One length or range check as zod states it: a number compared with a limit, or a safe-integer test. */
export type Bound =
  | { readonly op: '>=' | '<=' | '===' | '>' | '<'; readonly limit: number }
  | { readonly op: 'safeint' };

/**
 * The checks of a string or array (`length`) or a number (`number`) as bounds; undefined when one is anything else (a
 * refinement, a format, an overwrite…), which only zod knows how to run.
 */
export function boundsOf(schema: z.core.$ZodType, kinds: 'length' | 'number'): Bound[] | undefined {
  const result: Bound[] = [];
  for (const check of schema._zod.def.checks ?? []) {
    const def = check._zod.def as { check: string } & Record<string, unknown>;
    const bound = kinds === 'length' ? lengthBound(def) : numberBound(def);
    if (bound === undefined) return undefined;
    result.push(bound);
  }
  return result;
}

function lengthBound(def: { check: string } & Record<string, unknown>): Bound | undefined {
  const [op, field] = Object.hasOwn(LENGTH_CHECKS, def.check) ? (LENGTH_CHECKS[def.check] ?? []) : [];
  const limit = field === undefined ? undefined : def[field];
  return op === undefined || typeof limit !== 'number' ? undefined : { op, limit };
}

const LENGTH_CHECKS: Record<string, readonly ['>=' | '<=' | '===', string]> = {
  min_length: ['>=', 'minimum'],
  max_length: ['<=', 'maximum'],
  length_equals: ['===', 'length'],
};

function numberBound(def: { check: string } & Record<string, unknown>): Bound | undefined {
  if (def.check === 'number_format' && def['format'] === 'safeint') return { op: 'safeint' };
  const limit = def['value'];
  if (typeof limit !== 'number' || (def.check !== 'greater_than' && def.check !== 'less_than')) return undefined;
  const inclusive = def['inclusive'] === true;
  if (def.check === 'greater_than') return { op: inclusive ? '>=' : '>', limit };
  return { op: inclusive ? '<=' : '<', limit };
}

/** Whether a number (a length, or the value itself) meets every bound. */
export function within(value: number, bounds: readonly Bound[]): boolean {
  for (const bound of bounds) {
    if (bound.op === 'safeint') {
      if (!Number.isSafeInteger(value)) return false;
    } else if (!compare(value, bound.op, bound.limit)) {
      return false;
    }
  }
  return true;
}

function compare(value: number, op: '>=' | '<=' | '===' | '>' | '<', limit: number): boolean {
  switch (op) {
    case '>=':
      return value >= limit;
    case '<=':
      return value <= limit;
    case '===':
      return value === limit;
    case '>':
      return value > limit;
    case '<':
      return value < limit;
  }
}

/** The bounds as a JavaScript condition on `subject` (`true` for none), for generated code. */
export function boundsCode(subject: string, bounds: readonly Bound[]): string {
  const terms = bounds.map((bound) =>
    bound.op === 'safeint' ? `Number.isSafeInteger(${subject})` : `${subject} ${bound.op} ${numberCode(bound.limit)}`,
  );
  return terms.length === 0 ? 'true' : terms.join(' && ');
}

function numberCode(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return 'Infinity';
  if (value === -Infinity) return '-Infinity';
  return Object.is(value, -0) ? '-0' : String(value);
}
