import type { z } from 'zod';
import { boundsOf, boundsCode } from './schema-bounds';
import { schemaCheck, schemaVerdict } from './schema-check';
import { UNCHANGED } from './schema-nodes';

type AnySchema = z.core.$ZodType;

/**
 * Whether a value may be handed on as it is: it is strict JSON (`checkJson` finds nothing), the schema accepts it,
 * and zod's output would equal it (`schemaVerdict`'s `unchanged`). `false` promises nothing: the value may still
 * pass, and is then for `checkJson`, `schemaVerdict` and zod to judge, with their errors.
 */
export type PassThrough = (value: unknown) => boolean;

/**
 * Where a value comes from. `decoded`: `JSON.parse` made it, so no object in it has a symbol key, and the check
 * does not look for one; `any`: it may.
 */
export type ValueOrigin = 'decoded' | 'any';

/** Nesting deeper than this is refused by `checkJson`, so never passed here. */
const MAX_DEPTH = 128;

const compiled = { decoded: new WeakMap<AnySchema, PassThrough>(), any: new WeakMap<AnySchema, PassThrough>() };

/**
 * The common case of a contract check in one plain walk: a wire value that is already exactly what its contract
 * describes. Generated once per schema as JavaScript with its keys and bounds written in (one read per field, no
 * result objects, nothing allocated), for objects (not loose, no catch-all), arrays, strings, numbers, booleans,
 * null, literals, enums, unions and optional and nullable fields; any other node is walked for strict JSON and
 * asked to `schemaVerdict`. An environment that refuses generated code answers `false` throughout, so the caller
 * takes the exact path.
 */
export function schemaPassThrough(schema: AnySchema, origin: ValueOrigin): PassThrough {
  let check = compiled[origin].get(schema);
  if (check === undefined) {
    check = generate(schema, origin) ?? (() => false);
    compiled[origin].set(schema, check);
  }
  return check;
}

/** What generated code calls and reads: helper functions, sets and schemaCheck's checks, by index. */
interface Scope {
  readonly values: unknown[];
  readonly functions: string[];
  readonly origin: ValueOrigin;
  /** Schemas being written out: met again below themselves, they are recursive (a getter in a shape). */
  readonly writing: Set<AnySchema>;
}

function generate(schema: AnySchema, origin: ValueOrigin): PassThrough | undefined {
  const scope: Scope = { values: [isJson], functions: [], origin, writing: new Set() };
  try {
    const top = nodeCode(schema, 'value', '0', scope);
    const body = `${scope.functions.join('\n')}\nreturn (value) => ${top};`;
    return new Function('scope', body)(scope.values) as PassThrough;
  } catch {
    // No generated code (a policy that refuses it), or a schema this cannot read: the exact path judges every value.
    return undefined;
  }
}

/** A reference to `value` from generated code. */
function hold(scope: Scope, value: unknown): string {
  scope.values.push(value);
  return `scope[${scope.values.length - 1}]`;
}

/**
 * A condition on `subject` (an identifier) at nesting `depth` (an expression). A node not written out natively (or met
 * again inside itself) is strict JSON checked by a walk and then asked to `schemaVerdict` (zod, for what it does not
 * compile).
 */
function nodeCode(schema: AnySchema, subject: string, depth: string, scope: Scope): string {
  if (!scope.writing.has(schema)) {
    scope.writing.add(schema);
    const native = nativeCode(schema, subject, depth, scope);
    scope.writing.delete(schema);
    if (native !== undefined) return native;
  }
  const verdict = hold(scope, schemaVerdict(schema));
  return `(scope[0](${subject}, ${depth}, ${scope.origin === 'any'}) && ${verdict}(${subject}) === ${UNCHANGED})`;
}

function nativeCode(schema: AnySchema, subject: string, depth: string, scope: Scope): string | undefined {
  const def = schema._zod.def as z.core.$ZodTypeDef & Record<string, unknown>;
  const plain = !def.checks?.length && def['coerce'] !== true;
  switch (def.type) {
    case 'string': {
      const bounds = boundsOf(schema, 'length');
      if (bounds === undefined || def['coerce'] === true || 'format' in def || 'check' in def) return undefined;
      return `(typeof ${subject} === 'string' && ${boundsCode(`${subject}.length`, bounds)})`;
    }
    case 'number': {
      const bounds = boundsOf(schema, 'number');
      if (bounds === undefined || def['coerce'] === true) return undefined;
      if ('format' in def || 'check' in def) {
        if (def['format'] !== 'safeint' || def['check'] !== 'number_format') return undefined;
        bounds.unshift({ op: 'safeint' });
      }
      return `(typeof ${subject} === 'number' && Number.isFinite(${subject}) && ${boundsCode(subject, bounds)})`;
    }
    case 'boolean':
      return plain ? `(typeof ${subject} === 'boolean')` : undefined;
    case 'null':
      return plain ? `(${subject} === null)` : undefined;
    case 'unknown':
    case 'any':
      return plain ? `scope[0](${subject}, ${depth}, ${scope.origin === 'any'})` : undefined;
    case 'literal':
    case 'enum':
      return plain ? choiceCode(def, subject, scope) : undefined;
    case 'optional':
      // Present, `undefined` is not JSON; absent, it is the object's to allow (`fieldCode`).
      if (!plain || schema._zod.traits.has('$ZodExactOptional')) return undefined;
      if ((def['innerType'] as AnySchema)._zod.optin === 'defaulted') return undefined;
      return nodeCode(def['innerType'] as AnySchema, subject, depth, scope);
    case 'nullable':
      return plain
        ? `(${subject} === null || ${nodeCode(def['innerType'] as AnySchema, subject, depth, scope)})`
        : undefined;
    case 'array':
      return functionCall(arrayFunction(schema, def, scope), subject, depth);
    case 'object':
      return functionCall(objectFunction(def, scope), subject, depth);
    case 'union':
      return functionCall(unionFunction(def, scope), subject, depth);
    default:
      return undefined;
  }
}

function functionCall(name: string | undefined, subject: string, depth: string): string | undefined {
  return name === undefined ? undefined : `${name}(${subject}, ${depth})`;
}

/** A literal's or a string enum's values, each a JSON primitive. */
function choiceCode(def: Record<string, unknown>, subject: string, scope: Scope): string | undefined {
  const values =
    def['type'] === 'literal'
      ? (def['values'] as unknown[])
      : Object.values((def['entries'] ?? {}) as Record<string, unknown>);
  if (!Array.isArray(values) || values.length === 0) return undefined;
  if (def['type'] === 'enum' && !values.every((value) => typeof value === 'string')) return undefined;
  const json = (value: unknown) =>
    typeof value === 'string' || typeof value === 'boolean' || value === null || Number.isFinite(value);
  if (!values.every(json) || values.some((value) => Object.is(value, -0))) return undefined;
  if (values.length > 8) return `${hold(scope, new Set(values))}.has(${subject})`;
  return `(${values.map((value) => `${subject} === ${JSON.stringify(value)}`).join(' || ')})`;
}

function addFunction(scope: Scope, parameters: string, body: string): string {
  const name = `f${scope.functions.length}`;
  scope.functions.push(`function ${name}(${parameters}) {\n${body}\n}`);
  return name;
}

function arrayFunction(schema: AnySchema, def: Record<string, unknown>, scope: Scope): string | undefined {
  const bounds = boundsOf(schema, 'length');
  if (bounds === undefined) return undefined;
  const element = nodeCode(def['element'] as AnySchema, 'item', 'depth + 1', scope);
  return addFunction(
    scope,
    'array, depth',
    `if (!Array.isArray(array) || Object.getPrototypeOf(array) !== Array.prototype || depth >= ${MAX_DEPTH}) return false;
    if (!(${boundsCode('array.length', bounds)})) return false;
    for (let index = 0; index < array.length; index++) {
      const item = array[index];
      if (!${element}) return false;
    }
    return true;`,
  );
}

/** Keys `checkJson` refuses wherever they are. */
const RESERVED = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * A plain object whose own keys are the shape's, in the order zod writes them (array-index keys first), each value
 * passing; a key missing only where the field is optional. Loose objects, catch-alls and reserved keys are left out.
 */
function objectFunction(def: Record<string, unknown>, scope: Scope): string | undefined {
  if ((def['checks'] as unknown[] | undefined)?.length) return undefined;
  const catchall = (def['catchall'] as AnySchema | undefined)?._zod.def.type;
  if (catchall !== undefined && catchall !== 'never') return undefined;
  const shape = def['shape'] as Record<string, AnySchema>;
  if (Object.getOwnPropertySymbols(shape).length > 0) return undefined;
  const keys = Object.keys(shape);
  if (keys.some((key) => RESERVED.has(key))) return undefined;
  const fields = keys.map((key) => fieldCode(key, shape[key] as AnySchema, scope));
  // The order zod's output has: the shape's keys as assigned, array-index keys moved first by the engine.
  const order = Object.keys(Object.fromEntries(keys.map((key) => [key, true])));
  const cases = order.map(
    (key, index) => `case ${JSON.stringify(key)}: if (last >= ${index}) return false; last = ${index}; break;`,
  );
  return addFunction(
    scope,
    'object, depth',
    `if (typeof object !== 'object' || object === null || Object.getPrototypeOf(object) !== Object.prototype) return false;
    if (depth >= ${MAX_DEPTH}) return false;
    let present = 0;
    let field;
    ${fields.join('\n')}
    let last = -1;
    let seen = 0;
    for (const key in object) {
      switch (key) {
        ${cases.join('\n')}
        default: return false;
      }
      seen++;
    }
    if (seen !== present) return false;
    ${scope.origin === 'any' ? 'if (Object.getOwnPropertySymbols(object).length !== 0) return false;' : ''}
    return true;`,
  );
}

/** One field: read once; missing is allowed only for an optional field (nothing added), present it must pass. */
function fieldCode(key: string, field: AnySchema, scope: Scope): string {
  const value = nodeCode(field, 'field', 'depth + 1', scope);
  const { optin, optout } = field._zod;
  const absent = optin === 'optional' && optout === 'optional';
  const name = JSON.stringify(key);
  return `field = object[${name}];
    if (field === undefined) { if (${absent ? `${name} in object` : 'true'}) return false; }
    else { present++; if (!${value}) return false; }`;
}

/**
 * A union's output is its first accepting option's: the value passes when an option passes it and no earlier option
 * accepts it. A discriminated union asks only the option its discriminator names, as zod does.
 */
function unionFunction(def: Record<string, unknown>, scope: Scope): string | undefined {
  if ((def['checks'] as unknown[] | undefined)?.length || def['unionFallback'] === true) return undefined;
  const options = def['options'] as AnySchema[];
  const passes = options.map((option) => nodeCode(option, 'value', 'depth', scope));
  const discriminator = def['discriminator'];
  if (typeof discriminator === 'string') {
    const byValue = new Map<unknown, number>();
    for (const [index, option] of options.entries()) {
      for (const value of option._zod.propValues?.[discriminator] ?? []) {
        if (byValue.has(value)) return undefined;
        byValue.set(value, index);
      }
    }
    const table = hold(scope, byValue);
    const cases = passes.map((pass, index) => `case ${index}: return ${pass};`);
    return addFunction(
      scope,
      'value, depth',
      `if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
      switch (${table}.get(value[${JSON.stringify(discriminator)}])) {
        ${cases.join('\n')}
        default: return false;
      }`,
    );
  }
  if (def['inclusive'] === false) return undefined;
  const tries = passes.map((pass, index) => {
    const accepts = hold(scope, schemaCheck(options[index] as AnySchema));
    return `if (${pass}) return true; if (${accepts}(value)) return false;`;
  });
  return addFunction(scope, 'value, depth', `${tries.join('\n')}\nreturn false;`);
}

/**
 * Strict JSON as `checkJson` means it, for a value under an `unknown` node: plain objects and arrays (no holes, no
 * reserved or, unless decoded, symbol keys) of strings, finite numbers, booleans and null, at most `MAX_DEPTH` deep.
 * A cycle reaches the depth and is refused; `checkJson` then names it.
 */
function isJson(value: unknown, depth: number, symbols: boolean): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object':
      break;
    default:
      return false;
  }
  if (value === null) return true;
  if (depth >= MAX_DEPTH) return false;
  const prototype = Object.getPrototypeOf(value);
  if (Array.isArray(value)) {
    if (prototype !== Array.prototype) return false;
    for (let index = 0; index < value.length; index++) {
      // A hole reads as undefined, which is refused like an undefined element.
      if (!isJson(value[index], depth + 1, symbols)) return false;
    }
  } else {
    if (prototype !== Object.prototype && prototype !== null) return false;
    for (const key in value) {
      if (RESERVED.has(key) || !Object.hasOwn(value, key)) return false;
      if (!isJson((value as Record<string, unknown>)[key], depth + 1, symbols)) return false;
    }
  }
  return !symbols || Object.getOwnPropertySymbols(value).length === 0;
}
