import type { SeededRandom } from './seeded-random';

/**
 * JSON text a careless parser or validator trips on. Written as text rather than stringified values, so it can hold
 * what `JSON.stringify` never writes: `1e999` (Infinity once parsed), `-0`, duplicate keys, lone surrogates.
 */
const STRINGS = [
  '""',
  '"\\u0000"',
  '"\\ud800"',
  '"\\udfff\\ud800"',
  '"😀\\u200b\\u202e"',
  '"__proto__"',
  '"constructor"',
  '"../../../../etc/passwd"',
  '"%s%n%x"',
  '"<script>alert(1)</script>"',
  '"\\n\\r\\t\\b\\f"',
  '"PING"',
] as const;

const NUMBERS = [
  '0',
  '-0',
  '-1',
  '1.5',
  '1e308',
  '1e999',
  '-1e999',
  '1e-400',
  '9007199254740993',
  '123456789012345678901234567890',
] as const;

const KEYS = [
  '"__proto__"',
  '"constructor"',
  '"prototype"',
  '"json"',
  '"meta"',
  '"a"',
  '"c"',
  '"t"',
  '"text"',
  '"operationId"',
  '""',
] as const;

const MAX_DEPTH = 4;

/** One hostile JSON value as text; `depth` bounds how far arrays and objects nest (deep nesting has its own kind). */
export function hostileJson(random: SeededRandom, depth = 0): string {
  const leaf = depth >= MAX_DEPTH;
  switch (
    random.weighted({
      string: 4,
      longString: 0.5,
      number: 3,
      literal: 2,
      array: leaf ? 0 : 3,
      object: leaf ? 0 : 3,
      wideArray: 0.2,
    })
  ) {
    case 'string':
      return random.pick(STRINGS);
    case 'longString':
      return `"${'x'.repeat(random.chance(0.05) ? 65_536 : random.pick([256, 4096]))}"`;
    case 'number':
      return random.pick(NUMBERS);
    case 'literal':
      return random.pick(['true', 'false', 'null']);
    case 'array':
      return `[${Array.from({ length: random.int(5) }, () => hostileJson(random, depth + 1)).join(',')}]`;
    case 'object':
      return `{${Array.from({ length: random.int(5) }, () => `${random.pick(KEYS)}:${hostileJson(random, depth + 1)}`).join(',')}}`;
    case 'wideArray':
      return `[${new Array<string>(random.chance(0.1) ? 10_000 : 1_000).fill('0').join(',')}]`;
  }
}

/** A request id: mostly ordinary, sometimes one no id table expects. */
export function hostileId(random: SeededRandom, ordinary: number): string {
  if (random.chance(0.8)) return String(ordinary);
  return random.pick([
    '0',
    '-1',
    '1e308',
    '1e999',
    '9007199254740993',
    '"x"',
    '""',
    `"${'9'.repeat(10_000)}"`,
    `${'9'.repeat(400)}`,
    'null',
    'true',
    '{}',
    '[]',
  ]);
}
