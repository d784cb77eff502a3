import type { z } from 'zod';
import { boundsOf, within } from './schema-bounds';
import { compileObject } from './schema-objects';
import {
  CHANGED,
  REFUSED,
  UNCHANGED,
  sameStructure,
  type Compile,
  type Node,
  type SchemaVerdict,
} from './schema-nodes';

export { SCHEMA_VERDICTS, type SchemaVerdict } from './schema-nodes';

/** Whether a value is one a schema accepts. */
export type SchemaCheck = (value: unknown) => boolean;

/** What zod's parse of a value would do: refuse it, accept it into an output that differs from it, or into its equal. */
export type SchemaVerdictCheck = (value: unknown) => SchemaVerdict;

type AnySchema = z.core.$ZodType;

/** One compiled node per schema object and kind of answer, for the life of the schema. */
const checkNodes = new WeakMap<AnySchema, Node>();
const verdictNodes = new WeakMap<AnySchema, Node>();
const checks = new WeakMap<AnySchema, SchemaCheck>();

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
  let check = checks.get(schema);
  if (check === undefined) {
    const node = compiledNode(schema, false);
    check = (value) => node(value) !== REFUSED;
    checks.set(schema, check);
  }
  return check;
}

/**
 * `schemaCheck`'s answer and one more: whether zod's output would equal the value (`unchanged`), so a caller that
 * needs zod's output can keep the value it has instead of parsing it into a copy, and parses only when something
 * would change (`changed`: a default or transform applied, an unknown key stripped, keys put in the shape's order…)
 * or to learn why it is refused. Equal means: the same kind (a plain object, a plain array), an object's own
 * enumerable keys in the same order, an array's length and elements (a hole is not an `undefined` element; other
 * properties of an array are not compared, as zod reads none), and each leaf the same by `Object.is`. Symbol keys are
 * not compared either: strict JSON has none. Nodes asked to zod are parsed and their output compared.
 */
export function schemaVerdict(schema: AnySchema): SchemaVerdictCheck {
  return compiledNode(schema, true);
}

/** Schemas being compiled, by kind of answer: met again below themselves, they are recursive (a getter in a shape). */
const compiling = { check: new Set<AnySchema>(), verdict: new Set<AnySchema>() };

function compiledNode(schema: AnySchema, verdict: boolean): Node {
  const cache = verdict ? verdictNodes : checkNodes;
  let node = cache.get(schema);
  if (node !== undefined) return node;
  const inProgress = verdict ? compiling.verdict : compiling.check;
  // A recursive schema's inner use is the node being compiled, looked up when it runs (it is cached by then).
  if (inProgress.has(schema)) return (value) => compiledNode(schema, verdict)(value);
  inProgress.add(schema);
  try {
    node = compileNode(schema, verdict);
  } catch {
    // A definition this cannot read (another zod's, a future one): zod answers for the whole schema.
    node = verdict ? zodVerdict(schema) : zodCheck(schema);
  } finally {
    inProgress.delete(schema);
  }
  cache.set(schema, node);
  return node;
}

const compileNode: Compile = (schema, verdict) =>
  compileNative(schema, verdict) ?? (verdict ? zodVerdict(schema) : zodCheck(schema));

function zodCheck(schema: AnySchema): Node {
  const zod = schema as unknown as z.ZodType;
  return (value) => (zod.safeParse(value).success ? UNCHANGED : REFUSED);
}

function zodVerdict(schema: AnySchema): Node {
  const zod = schema as unknown as z.ZodType;
  return (value) => {
    const parsed = zod.safeParse(value);
    if (!parsed.success) return REFUSED;
    return sameStructure(parsed.data, value) ? UNCHANGED : CHANGED;
  };
}

/** A node that accepts what `accepts` does and hands it on as it is (zod's output for such a node is its input). */
function leaf(accepts: (value: unknown) => boolean): Node {
  return (value) => (accepts(value) ? UNCHANGED : REFUSED);
}

/** A plain check for the kinds listed in `schemaCheck`, or undefined to ask zod. */
function compileNative(schema: AnySchema, verdict: boolean): Node | undefined {
  const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
  switch (def.type) {
    case 'string': {
      const checks = boundsOf(schema, 'length');
      // A format schema (`z.email()`, `z.uuid()`, `z.iso.datetime()`…) carries its check in its own definition.
      if (checks === undefined || def['coerce'] === true || 'format' in def || 'check' in def) return undefined;
      return leaf((value) => typeof value === 'string' && within(value.length, checks));
    }
    case 'number': {
      const checks = boundsOf(schema, 'number');
      if (checks === undefined || def['coerce'] === true) return undefined;
      // `z.int()` is a number whose own definition is its format check; other formats (`z.int32()`…) go to zod.
      if ('format' in def || 'check' in def) {
        if (def['format'] !== 'safeint' || def['check'] !== 'number_format') return undefined;
        checks.unshift({ op: 'safeint' });
      }
      return leaf((value) => typeof value === 'number' && Number.isFinite(value) && within(value, checks));
    }
    case 'boolean':
      if (def.checks?.length || def['coerce'] === true) return undefined;
      return leaf((value) => typeof value === 'boolean');
    case 'null':
      return def.checks?.length ? undefined : leaf((value) => value === null);
    case 'undefined':
      return def.checks?.length ? undefined : leaf((value) => value === undefined);
    case 'unknown':
    case 'any':
      return def.checks?.length ? undefined : () => UNCHANGED;
    case 'literal': {
      const values = def['values'];
      if (def.checks?.length || !Array.isArray(values)) return undefined;
      return leaf((value) => values.includes(value));
    }
    case 'enum': {
      const entries: unknown[] = Object.values((def['entries'] ?? {}) as Record<string, unknown>);
      // Numeric enums hold reverse mappings that zod leaves out; only plain string enums are compiled.
      if (def.checks?.length || !entries.every((entry) => typeof entry === 'string')) return undefined;
      const names = new Set<unknown>(entries);
      return leaf((value) => names.has(value));
    }
    case 'optional':
    case 'nullable':
      return compileOptional(schema, def, verdict);
    case 'array':
      return compileArray(schema, def, verdict);
    case 'object':
      return compileObject(def, verdict, compiledNode);
    case 'union':
      return compileUnion(def, verdict);
    default:
      return undefined;
  }
}

/**
 * `undefined` (optional) or `null` (nullable) is accepted as it is; anything else is the inner schema's. Left to zod:
 * an exact optional (it refuses a present `undefined`) and an optional around a default (it substitutes).
 */
function compileOptional(schema: AnySchema, def: Record<string, unknown>, verdict: boolean): Node | undefined {
  const innerType = def['innerType'] as AnySchema;
  if ((def['checks'] as unknown[] | undefined)?.length || schema._zod.traits.has('$ZodExactOptional')) return undefined;
  if (def['type'] === 'optional' && innerType._zod.optin === 'defaulted') return undefined;
  const inner = compiledNode(innerType, verdict);
  const empty = def['type'] === 'optional' ? undefined : null;
  return (value) => (value === empty ? UNCHANGED : inner(value));
}

/** Every element by index, as zod reads them (a hole as `undefined`); zod's output is a new plain array without holes. */
function compileArray(schema: AnySchema, def: Record<string, unknown>, verdict: boolean): Node | undefined {
  const checks = boundsOf(schema, 'length');
  if (checks === undefined) return undefined;
  const element = compiledNode(def['element'] as AnySchema, verdict);
  return (value) => {
    if (!Array.isArray(value) || !within(value.length, checks)) return REFUSED;
    let answer: SchemaVerdict = verdict && Object.getPrototypeOf(value) !== Array.prototype ? CHANGED : UNCHANGED;
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      const result = element(item);
      if (result === REFUSED) return REFUSED;
      if (result < answer) answer = result;
      // zod's output holds `undefined` where the value has a hole.
      if (verdict && item === undefined && !(index in value)) answer = CHANGED;
    }
    return answer;
  };
}

/**
 * The first option that accepts is zod's answer for a union, and its output zod's. A discriminated union's options
 * have distinct values at the discriminator (zod refuses to build one otherwise), so only the option the value names
 * can accept it: it is looked up, as zod does, instead of tried in turn.
 */
function compileUnion(def: Record<string, unknown>, verdict: boolean): Node | undefined {
  if ((def['checks'] as unknown[] | undefined)?.length || def['unionFallback'] === true) return undefined;
  const options = def['options'] as AnySchema[];
  const nodes = options.map((option) => compiledNode(option, verdict));
  const discriminator = def['discriminator'];
  if (typeof discriminator === 'string') {
    const byValue = new Map<unknown, Node>();
    const distinct = options.every((option, index) => {
      const values = option._zod.propValues?.[discriminator];
      if (values === undefined) return false;
      for (const value of values) {
        if (byValue.has(value)) return false;
        byValue.set(value, nodes[index] as Node);
      }
      return true;
    });
    if (!distinct) return undefined;
    return (value) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return REFUSED;
      const node = byValue.get((value as Record<string, unknown>)[discriminator]);
      return node === undefined ? REFUSED : node(value);
    };
  }
  // Not inclusive (`z.xor`): exactly one option may accept; left to zod.
  if (def['inclusive'] === false) return undefined;
  return (value) => {
    for (const node of nodes) {
      const answer = node(value);
      if (answer !== REFUSED) return answer;
    }
    return REFUSED;
  };
}
