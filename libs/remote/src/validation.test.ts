import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { RemoteError } from './errors';
import { Notes } from './testing/notes-service';
import {
  checkCallArguments,
  findMethod,
  parseArgument,
  parseArguments,
  parseResult,
  parseValue,
  type MethodSpec,
  type ValueSource,
} from './validation';

function method(name: string): MethodSpec {
  const found = findMethod(Notes.exposure, name);
  if (found === undefined) throw new Error(`No method ${name}`);
  return found;
}

const add = method('add');
const count = method('count');

function thrown(run: () => unknown): RemoteError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(RemoteError);
    return error as RemoteError;
  }
  throw new Error('expected a RemoteError');
}

describe('method lookup', () => {
  it('finds only own, exposed methods', () => {
    expect(add).toBeDefined();
    for (const inherited of ['toString', '__proto__', 'constructor', 'hasOwnProperty', 'state']) {
      expect(findMethod(Notes.exposure, inherited)).toBeUndefined();
    }
  });
});

describe('argument and result checks', () => {
  it('returns the arguments as the schema parsed them', () => {
    expect(parseArguments(add, ['note'])).toEqual(['note']);
  });

  it('rejects a non-array or a wrong count with invalid_argument', () => {
    expect(thrown(() => parseArguments(add, { 0: 'note' })).code).toBe('invalid_argument');
    expect(thrown(() => parseArguments(add, [])).message).toMatch(/Expected 1 argument/);
    expect(thrown(() => parseArguments(add, ['a', 'b'])).code).toBe('invalid_argument');
  });

  it('rejects a non-JSON argument before the schema sees it, naming the kind and path', () => {
    const error = thrown(() => parseArguments(add, [new Date(0)]));
    expect(error.toEnvelope()).toMatchObject({
      code: 'invalid_argument',
      data: { reason: 'not_json', kind: 'date', path: '$.args[0]' },
    });
  });

  it('rejects an undefined argument even where the schema accepts undefined: it would arrive as null', () => {
    for (const schema of [z.unknown(), z.string().optional()]) {
      const error = thrown(() => parseArgument(schema, undefined, 0, 'sender'));
      expect(error.toEnvelope()).toMatchObject({
        code: 'invalid_argument',
        data: { reason: 'not_json', kind: 'undefined', path: '$.args[0]' },
      });
    }
    expect(thrown(() => parseArguments(add, [undefined])).data).toMatchObject({ kind: 'undefined' });
  });

  it('rejects an argument that breaks the contract, naming the path but not the value', () => {
    const error = thrown(() => parseArguments(add, ['']));
    expect(error.toEnvelope()).toMatchObject({
      code: 'invalid_argument',
      data: { reason: 'schema', path: '$.args[0]' },
    });
  });

  it('rejects a result that breaks the contract with invalid_result', () => {
    expect(parseResult(count, 3)).toBe(3);
    expect(thrown(() => parseResult(count, 'three')).code).toBe('invalid_result');
    expect(thrown(() => parseResult(count, undefined)).code).toBe('invalid_result');
  });
});

describe('argument errors echo the caller boundedly', () => {
  const hugeKey = 'k'.repeat(1_000_000);

  it('cuts a schema issue path made of the caller keys, and an issue message that quotes one', () => {
    const strict = z.strictObject({ name: z.string() });
    const error = thrown(() => parseArgument(strict, { name: 'a', [hugeKey]: 1 }, 0, 'sender'));
    expect(error.code).toBe('invalid_argument');
    expect(error.message.length).toBeLessThan(1024);
    const record = z.record(z.string(), z.number());
    const nested = thrown(() => parseArgument(record, { [hugeKey]: 'not a number' }, 0, 'sender'));
    expect(nested.message.length).toBeLessThan(1024);
  });

  it('cuts the path of a strict-JSON violation in the message and in data', () => {
    const error = thrown(() => parseArgument(z.unknown(), { [hugeKey]: new Date(0) }, 0, 'sender'));
    expect(error.data).toMatchObject({ reason: 'not_json', kind: 'date' });
    expect(JSON.stringify(error.toEnvelope()).length).toBeLessThan(1024);
  });
});

describe('what stands for zod’s output', () => {
  const entry = z.object({ name: z.string(), tags: z.array(z.string()), note: z.string().optional() });
  const check = (value: unknown, source: ValueSource) => parseValue(entry, value, '$.x', 'invalid_argument', source);

  it('a value the contract leaves as it is: itself from a frame or a sender, an equal copy from a holder', () => {
    for (const value of [{ name: 'a', tags: ['t'] }, JSON.parse('{"name":"a","tags":[],"note":"n"}')]) {
      expect(check(value, 'frame')).toBe(value);
      expect(check(value, 'sender')).toBe(value);
      const copy = check(value, 'holder') as { tags: string[] };
      expect(copy).toStrictEqual(value);
      expect(copy).not.toBe(value);
      expect(copy.tags).not.toBe(value.tags);
    }
  });

  it('a value the contract changes: zod’s output, from any source', () => {
    for (const source of ['frame', 'sender', 'holder'] as const) {
      const value = { tags: [], extra: 1, name: 'a' };
      const parsed = check(value, source);
      expect(parsed).toStrictEqual({ name: 'a', tags: [] });
      expect(Object.keys(parsed as object)).toEqual(['name', 'tags']);
    }
  });

  it('a value the contract refuses: the same error from any source', () => {
    const errors = (['frame', 'sender', 'holder'] as const).map((source) =>
      thrown(() => check({ name: 1, tags: [] }, source)).toEnvelope(),
    );
    expect(errors[0]).toMatchObject({ code: 'invalid_argument', data: { reason: 'schema', path: '$.x' } });
    expect(errors[1]).toStrictEqual(errors[0]);
    expect(errors[2]).toStrictEqual(errors[0]);
  });
});

describe('checking a call against an exposure', () => {
  it('parses the arguments of a known member and refuses bad ones and unknown members', () => {
    expect(checkCallArguments(Notes.exposure, 'add', ['note'])).toEqual(['note']);
    expect(thrown(() => checkCallArguments(Notes.exposure, 'add', [''])).code).toBe('invalid_argument');
    expect(thrown(() => checkCallArguments(Notes.exposure, 'x'.repeat(100_000), [])).message.length).toBeLessThan(200);
  });
});
