import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  JSON_VIOLATIONS,
  checkJson,
  copyJson,
  detachJson,
  isJsonValue,
  jsonEquals,
  type JsonValue,
  type JsonViolationKind,
} from './json';

/** JSON values whose keys are plain words, so no generated key is one the guard reserves. */
const plainJson: fc.Arbitrary<JsonValue> = fc.letrec<{ value: JsonValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string(),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => (Object.is(n, -0) ? 0 : n)),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.stringMatching(/^[a-z]{1,6}$/), tie('value'), { maxKeys: 4 }),
  ),
})).value;

function violationOf(value: unknown): { kind: JsonViolationKind; path: string } | undefined {
  const result = checkJson(value);
  return result.isErr() ? result.error : undefined;
}

class Point {
  constructor(readonly x: number) {}
}

function nested(depth: number): JsonValue {
  let value: JsonValue = 'leaf';
  for (let level = 0; level < depth; level++) value = [value];
  return value;
}

describe('checkJson', () => {
  it('accepts every value that survives a JSON round trip unchanged', () => {
    fc.assert(
      fc.property(plainJson, (value) => {
        expect(checkJson(value).isOk()).toBe(true);
        expect(isJsonValue(JSON.parse(JSON.stringify(value)))).toBe(true);
      }),
    );
  });

  it('accepts null-prototype objects and shared (non-cyclic) references', () => {
    const shared = { n: 1 };
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1 });
    expect(checkJson({ left: shared, right: shared, bare }).isOk()).toBe(true);
  });

  const cycle: Record<string, unknown> = { name: 'loop' };
  cycle['self'] = cycle;
  const sparse: unknown[] = [1];
  sparse[2] = 3;
  const cases: Array<[string, unknown, JsonViolationKind, string]> = [
    ['undefined at the top', undefined, 'undefined', '$'],
    ['undefined as a property', { a: undefined }, 'undefined', '$.a'],
    ['undefined in an array', [1, undefined], 'undefined', '$[1]'],
    ['a function', { run: () => 1 }, 'function', '$.run'],
    ['a symbol value', [Symbol('s')], 'symbol', '$[0]'],
    ['a symbol key', { [Symbol('k')]: 1 }, 'symbol', '$'],
    ['a bigint', { n: 10n }, 'bigint', '$.n'],
    ['NaN', { n: Number.NaN }, 'non_finite_number', '$.n'],
    ['Infinity', [Number.POSITIVE_INFINITY], 'non_finite_number', '$[0]'],
    ['-Infinity', Number.NEGATIVE_INFINITY, 'non_finite_number', '$'],
    ['a Date', { when: new Date(0) }, 'date', '$.when'],
    ['a Map', { m: new Map() }, 'map', '$.m'],
    ['a Set', [new Set([1])], 'set', '$[0]'],
    ['a class instance', { p: new Point(1) }, 'class_instance', '$.p'],
    ['a typed array', { bytes: new Uint8Array(2) }, 'class_instance', '$.bytes'],
    ['a boxed primitive', { s: new String('x') }, 'class_instance', '$.s'],
    ['an Error', { e: new Error('x') }, 'class_instance', '$.e'],
    ['an array subclass', { list: new (class List extends Array {})() }, 'class_instance', '$.list'],
    ['a sparse array', { list: sparse }, 'sparse_array', '$.list[1]'],
    ['a cycle', cycle, 'cycle', '$.self'],
    ['a __proto__ key', JSON.parse('{"a":{"__proto__":{"polluted":true}}}'), 'reserved_key', '$.a.__proto__'],
    ['a constructor key', { constructor: 'x' }, 'reserved_key', '$.constructor'],
    ['nesting past the depth limit', nested(200), 'too_deep', `$${'[0]'.repeat(128)}`],
  ];

  it.each(cases)('rejects %s with its own kind and path', (_label, value, kind, path) => {
    expect(violationOf(value)).toEqual({ kind, path });
    expect(isJsonValue(value)).toBe(false);
  });

  it('has a case above for every violation kind', () => {
    const covered = new Set(cases.map(([, , kind]) => kind));
    expect([...covered].sort()).toEqual(Object.values(JSON_VIOLATIONS).sort());
  });

  it('prefixes paths with the given root', () => {
    expect(checkJson({ a: [1, Number.NaN] }, '$.args[0]')._unsafeUnwrapErr()).toEqual({
      kind: 'non_finite_number',
      path: '$.args[0].a[1]',
    });
  });
});

describe('detachJson', () => {
  it('returns an equal, deeply frozen copy that shares nothing with the original', () => {
    fc.assert(
      fc.property(plainJson, (value) => {
        const detached = detachJson(value);
        expect(detached).toEqual(value);
        if (typeof value === 'object' && value !== null) {
          expect(detached).not.toBe(value);
          expect(Object.isFrozen(detached)).toBe(true);
        }
      }),
    );
  });

  it('keeps the copy unchanged when the original is mutated later', () => {
    const original = { list: [{ name: 'a' }] };
    const detached = detachJson(original);
    original.list[0] = { name: 'changed' };
    expect(detached.list[0]?.name).toBe('a');
    expect(() => {
      (detached.list as Array<{ name: string }>).push({ name: 'b' });
    }).toThrow(TypeError);
  });
});

describe('copyJson', () => {
  it('returns an equal copy, keys in the same order, that shares no object with the original and is not frozen', () => {
    const objects = (value: unknown): unknown[] =>
      typeof value !== 'object' || value === null ? [] : [value, ...Object.values(value).flatMap(objects)];
    fc.assert(
      fc.property(plainJson, (value) => {
        const copy = copyJson(value);
        expect(copy).toEqual(value);
        expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
        const originals = new Set(objects(value));
        for (const object of objects(copy)) {
          expect(originals.has(object)).toBe(false);
          expect(Object.isFrozen(object)).toBe(false);
        }
      }),
    );
  });

  it('keeps an own __proto__ key a key', () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    const copy = copyJson(parsed as never) as Record<string, unknown>;
    expect(Object.keys(copy)).toEqual(['__proto__', 'a']);
    expect((copy as { polluted?: boolean }).polluted).toBeUndefined();
  });
});

describe('detachJson beyond JSON', () => {
  it('keeps an own __proto__ key a key, leaving the copy a plain object', () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    const detached = detachJson(parsed as never) as Record<string, unknown>;
    expect(Object.getPrototypeOf(detached)).toBe(Object.prototype);
    expect(Object.keys(detached)).toEqual(['__proto__', 'a']);
    expect((detached as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('clones a node that is not a plain object as structuredClone does, and freezes it', () => {
    const when = new Date(0);
    const detached = detachJson({ when } as never) as { when: Date };
    expect(detached.when).toEqual(when);
    expect(detached.when).not.toBe(when);
    expect(Object.isFrozen(detached.when)).toBe(true);
  });
});

describe('jsonEquals', () => {
  it('ignores key order and compares deeply', () => {
    expect(jsonEquals({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 })).toBe(true);
  });

  it('tells apart values that differ in a key, a length or a type', () => {
    expect(jsonEquals({ a: 1 }, { b: 1 })).toBe(false);
    expect(jsonEquals({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(jsonEquals([1, 2], [1, 2, 3])).toBe(false);
    expect(jsonEquals([], {})).toBe(false);
    expect(jsonEquals('1', 1)).toBe(false);
    expect(jsonEquals(null, {})).toBe(false);
  });

  it('agrees with comparing canonical JSON text', () => {
    fc.assert(
      fc.property(plainJson, plainJson, (a, b) => {
        expect(jsonEquals(a, b)).toBe(canonical(a) === canonical(b));
        expect(jsonEquals(a, structuredClone(a))).toBe(true);
      }),
    );
  });
});

function canonical(value: JsonValue): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(value[key] as JsonValue)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}
