import type { z } from 'zod';
import { clipForError, quoteForError } from './error-text';
import { RemoteError } from './errors';
import { isRemoteResult, type AnyExposure, type Schema } from './exposure';
import { SCHEMA_VERDICTS, checkJson, copyJson, schemaPassThrough, schemaVerdict, type JsonValue } from '@pi/json';

export type MethodSpec = AnyExposure['methods'][string];

/** How much of a value's path, and of one schema issue, an error quotes. */
const MAX_PATH_LENGTH = 160;
const MAX_ISSUE_LENGTH = 200;

/** The method of an exposure by name, own properties only, so `__proto__` or `toString` never resolve. */
export function findMethod(exposure: AnyExposure, member: string): MethodSpec | undefined {
  return Object.hasOwn(exposure.methods, member) ? exposure.methods[member] : undefined;
}

/**
 * A call's arguments checked against an exposure as a host checks them before the method runs (and a client
 * before it sends them): parsed, or a RemoteError (`invalid_argument`, or `unknown_member`). For contract tests and
 * for callers that validate input early.
 */
export function checkCallArguments(exposure: AnyExposure, member: string, args: readonly unknown[]): unknown[] {
  const method = findMethod(exposure, member);
  if (method === undefined) throw new RemoteError('unknown_member', `Unknown member ${quoteForError(member)}`);
  return parseArguments(method, [...args]);
}

/** Arguments as the method will see them, or `invalid_argument` naming the first problem. */
export function parseArguments(method: MethodSpec, args: unknown): unknown[] {
  if (!Array.isArray(args)) throw new RemoteError('invalid_argument', 'Arguments must be an array');
  if (args.length !== method.args.length) {
    throw new RemoteError('invalid_argument', `Expected ${method.args.length} argument(s), got ${args.length}`);
  }
  return method.args.map((schema, index) => parseArgument(schema, args[index], index, 'frame'));
}

/** The paths of the first arguments, spelled once rather than on every call. */
const ARGUMENT_PATHS = Array.from({ length: 8 }, (_, index) => `$.args[${index}]`);

/**
 * One argument, on either side. Arguments travel as the elements of a JSON array, where `undefined` has no form
 * (it would arrive as `null`), so it is refused whatever the schema accepts: optional arguments are not
 * positional (docs/decisions.md). An argument the contract leaves as it is, is handed on itself: on the host it was
 * decoded from the call's frame, and a client writes its frame before the call returns to its caller.
 */
export function parseArgument(
  schema: Schema<unknown>,
  value: unknown,
  index: number,
  origin: 'frame' | 'sender',
): unknown {
  const path = ARGUMENT_PATHS[index] ?? `$.args[${index}]`;
  if (value === undefined) {
    throw new RemoteError('invalid_argument', `Missing argument at ${path}: undefined has no JSON form`, {
      reason: 'not_json',
      kind: 'undefined',
      path,
    });
  }
  return parseValue(schema, value, path, 'invalid_argument', origin);
}

/**
 * A plain (non-reference) result as JSON, or `invalid_result`. The service may still hold the value it returned and
 * change it before the reply is written (the reply waits for the connection's earlier stream frames), so what is
 * sent is a copy made now, as zod's parse made one.
 */
export function parseResult(method: MethodSpec, result: unknown): JsonValue | undefined {
  if (isRemoteResult(method.result)) throw new TypeError('parseResult is for plain results');
  return parseValue(method.result, result, '$.result', 'invalid_result', 'holder') as JsonValue | undefined;
}

/**
 * Where a checked value comes from, which decides what stands for zod's output when the contract leaves the value
 * as it is: `frame`, decoded from this call's frame alone, and `sender`, the caller's own, written into the call's
 * frame before the call returns, are handed on themselves; `holder`, a value someone may still change (a method's
 * result, a handler's response), is handed on as a plain copy made now.
 */
export type ValueSource = 'frame' | 'sender' | 'holder';

/**
 * Strict JSON first (so nothing a schema would coerce or strip slips past), then the contract's schema.
 * `undefined` is allowed only where the schema itself accepts it, as for a void result. zod's output is what the
 * value becomes; when it would equal the value (no default, transform or stripped key…) nothing is parsed and the
 * value, or a copy (`source`), stands for it. The common case, a value already exactly what its contract describes,
 * is one generated walk (`schemaPassThrough`); any other takes the exact path, with its errors.
 */
export function parseValue(
  schema: Schema<unknown>,
  value: unknown,
  path: string,
  code: 'invalid_argument' | 'invalid_result',
  source: ValueSource = 'holder',
): unknown {
  if (schemaPassThrough(schema, source === 'frame' ? 'decoded' : 'any')(value)) return unchanged(value, source);
  if (value !== undefined) {
    const json = checkJson(value, path);
    if (json.isErr()) {
      // The path names the caller's own keys, which may be of any length.
      const at = clipForError(json.error.path, MAX_PATH_LENGTH);
      throw new RemoteError(code, `Not strict JSON: ${json.error.kind} at ${at}`, {
        reason: 'not_json',
        kind: json.error.kind,
        path: at,
      });
    }
  }
  if (schemaVerdict(schema)(value) === SCHEMA_VERDICTS.unchanged) return unchanged(value, source);
  // Refused (zod says why) or changed (zod makes the output).
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new RemoteError(code, `Does not match the contract at ${path}: ${describeIssues(parsed.error)}`, {
      reason: 'schema',
      path,
    });
  }
  return parsed.data;
}

/**
 * The first issues, each bounded: an issue's path holds the caller's keys and some messages quote them (an
 * unrecognized key), so neither may make the error as big as the input.
 */
function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => {
      const path = issue.path.map((segment) => String(segment)).join('.');
      const message = clipForError(issue.message, MAX_ISSUE_LENGTH);
      return path.length > 0 ? `${clipForError(path, MAX_PATH_LENGTH)}: ${message}` : message;
    })
    .join('; ');
}

/** What stands for zod's output of a value it leaves unchanged, by where the value comes from. */
function unchanged(value: unknown, source: ValueSource): unknown {
  return source === 'holder' ? copyJson(value as JsonValue) : value;
}
