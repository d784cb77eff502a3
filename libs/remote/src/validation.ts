import type { z } from 'zod';
import { RemoteError } from './errors';
import { isRemoteResult, type AnyExposure, type Schema } from './exposure';
import { checkJson, type JsonValue } from '@pi/json';

export type MethodSpec = AnyExposure['methods'][string];

/** The method of an exposure by name, own properties only, so `__proto__` or `toString` never resolve. */
export function findMethod(exposure: AnyExposure, member: string): MethodSpec | undefined {
  return Object.hasOwn(exposure.methods, member) ? exposure.methods[member] : undefined;
}

/** Arguments as the method will see them, or `invalid_argument` naming the first problem. */
export function parseArguments(method: MethodSpec, args: unknown): unknown[] {
  if (!Array.isArray(args)) throw new RemoteError('invalid_argument', 'Arguments must be an array');
  if (args.length !== method.args.length) {
    throw new RemoteError('invalid_argument', `Expected ${method.args.length} argument(s), got ${args.length}`);
  }
  return method.args.map((schema, index) => parseArgument(schema, args[index], index));
}

/**
 * One argument, on either side. Arguments travel as the elements of a JSON array, where `undefined` has no form
 * (it would arrive as `null`), so it is refused whatever the schema accepts: optional arguments are not
 * positional (docs/decisions.md).
 */
export function parseArgument(schema: Schema<unknown>, value: unknown, index: number): unknown {
  const path = `$.args[${index}]`;
  if (value === undefined) {
    throw new RemoteError('invalid_argument', `Missing argument at ${path}: undefined has no JSON form`, {
      reason: 'not_json',
      kind: 'undefined',
      path,
    });
  }
  return parseValue(schema, value, path, 'invalid_argument');
}

/** A plain (non-reference) result as JSON, or `invalid_result`. */
export function parseResult(method: MethodSpec, result: unknown): JsonValue | undefined {
  if (isRemoteResult(method.result)) throw new TypeError('parseResult is for plain results');
  return parseValue(method.result, result, '$.result', 'invalid_result') as JsonValue | undefined;
}

/**
 * Strict JSON first (so nothing a schema would coerce or strip slips past), then the contract's schema.
 * `undefined` is allowed only where the schema itself accepts it, as for a void result.
 */
export function parseValue(
  schema: Schema<unknown>,
  value: unknown,
  path: string,
  code: 'invalid_argument' | 'invalid_result',
): unknown {
  if (value !== undefined) {
    const json = checkJson(value, path);
    if (json.isErr()) {
      throw new RemoteError(code, `Not strict JSON: ${json.error.kind} at ${json.error.path}`, {
        reason: 'not_json',
        kind: json.error.kind,
        path: json.error.path,
      });
    }
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new RemoteError(code, `Does not match the contract at ${path}: ${describeIssues(parsed.error)}`, {
      reason: 'schema',
      path,
    });
  }
  return parsed.data;
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') + ': ' : ''}${issue.message}`)
    .join('; ');
}
