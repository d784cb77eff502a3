import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT, withAbortSignal } from '@pi/context';
import {
  Catalog,
  Probe,
  TRANSPORTS,
  createCatalog,
  createProbe,
  remoteErrorOf,
  startRpcFixture,
  type RpcFixture,
} from '@pi/test-support';

class Point {
  constructor(readonly x: number) {}
}

/** Values that are not strict JSON, with the violation kind the client must name. */
const NON_JSON: ReadonlyArray<readonly [string, () => unknown, string]> = [
  ['a Date', () => new Date(0), 'date'],
  ['a Map', () => new Map([['k', 1]]), 'map'],
  ['a Set', () => new Set([1]), 'set'],
  ['a class instance', () => new Point(1), 'class_instance'],
  ['a function', () => ({ run: () => 1 }), 'function'],
  ['undefined inside an array', () => [1, undefined, 3], 'undefined'],
  ['NaN', () => ({ n: NaN }), 'non_finite_number'],
  ['Infinity', () => [Infinity], 'non_finite_number'],
  ['a bigint', () => 1n, 'bigint'],
  ['a cycle', () => cyclic(), 'cycle'],
];

function cyclic(): unknown {
  const value: Record<string, unknown> = {};
  value['self'] = value;
  return value;
}

describe.each(TRANSPORTS)('calls over %s', (kind) => {
  let fixture: RpcFixture;
  afterEach(() => fixture.close());

  async function connectProbe() {
    const probe = createProbe();
    fixture = await startRpcFixture(kind, { provide: (registry) => registry.provide(Probe, probe) });
    const client = await fixture.connect();
    return { probe, remote: await client.use(Probe) };
  }

  it('a JSON call returns its value and a void call resolves to undefined', async () => {
    const { probe, remote } = await connectProbe();
    expect(await remote.echo({ answer: 42 }, BACKGROUND_CONTEXT)).toEqual({ answer: 42 });
    expect(await remote.nothing(BACKGROUND_CONTEXT)).toBeUndefined();
    expect(probe.log.worked).toEqual(['echo', 'nothing']);
  });

  it('the context argument may be left out: the call runs under the background context', async () => {
    const { remote } = await connectProbe();
    const echo = remote.echo as (value: unknown) => Promise<unknown>;
    expect(await echo('no context')).toBe('no context');
  });

  it('nested objects, arrays, unicode and large strings round-trip exactly', async () => {
    const { remote } = await connectProbe();
    const value = {
      nested: { deeper: { list: [1, -2.5, 0, 1e21, Number.MAX_SAFE_INTEGER, true, false, null, [], {}] } },
      unicode: 'héllo ✓ 日本語 👩‍👩‍👧 \u0000 \u2028 \u2029 "quotes" \\ back\nslash',
      lone: '\ud800 alone',
      large: 'x'.repeat(1_000_000),
      keys: { 'with.dot': 1, 'with space': 2, '': 3, '0': 4 },
    };
    expect(await remote.echo(value, BACKGROUND_CONTEXT)).toStrictEqual(value);
  });

  it('any strict JSON value round-trips unchanged', async () => {
    const { remote } = await connectProbe();
    // -0 is not JSON (it travels as 0) and reserved keys are refused by design, so the generator avoids both.
    const json = fc
      .jsonValue({ maxDepth: 4 })
      .map((value) => JSON.parse(JSON.stringify(value)) as unknown)
      .filter((value) => !/"(__proto__|constructor|prototype)":/.test(JSON.stringify(value)));
    await fc.assert(
      fc.asyncProperty(json, async (value) => {
        expect(await remote.echo(value, BACKGROUND_CONTEXT)).toStrictEqual(value);
      }),
      { numRuns: 60 },
    );
  });

  describe('arguments the contract refuses never leave the client', () => {
    it.each(NON_JSON)('%s is invalid_argument naming its kind', async (_label, make, violation) => {
      const { remote } = await connectProbe();
      const sentBefore = fixture.frames.sent.length;
      const error = await remoteErrorOf(remote.echo(make(), BACKGROUND_CONTEXT));
      expect(error.code).toBe('invalid_argument');
      expect(error.data).toMatchObject({ reason: 'not_json', kind: violation });
      expect(fixture.frames.sent.length).toBe(sentBefore);
    });

    it('a value of the wrong shape is invalid_argument with the schema as the reason', async () => {
      fixture = await startRpcFixture(kind, { provide: (registry) => registry.provide(Catalog, createCatalog()) });
      const catalog = await (await fixture.connect()).use(Catalog);
      const sentBefore = fixture.frames.sent.length;
      const error = await remoteErrorOf(catalog.select({ provider: 7 } as never, BACKGROUND_CONTEXT));
      expect(error.code).toBe('invalid_argument');
      expect(error.data).toMatchObject({ reason: 'schema', path: '$.args[0]' });
      expect(fixture.frames.sent.length).toBe(sentBefore);
    });

    it('a missing argument is invalid_argument', async () => {
      const { remote } = await connectProbe();
      const fail = remote.fail as (code: string) => Promise<void>;
      expect((await remoteErrorOf(fail('only_code'))).code).toBe('invalid_argument');
    });

    it('an extra argument is invalid_argument', async () => {
      const { remote } = await connectProbe();
      const nothing = remote.nothing as unknown as (extra: string, context: unknown) => Promise<void>;
      const sentBefore = fixture.frames.sent.length;
      expect((await remoteErrorOf(nothing('extra', BACKGROUND_CONTEXT))).code).toBe('invalid_argument');
      expect(fixture.frames.sent.length).toBe(sentBefore);
    });
  });

  it('a call refused before it is sent is a rejected promise, never a throw', async () => {
    const { remote } = await connectProbe();
    const aborted = new AbortController();
    aborted.abort();
    const sentBefore = fixture.frames.sent.length;
    const refusals: Array<Promise<unknown>> = [];
    expect(() => {
      refusals.push(remote.echo(new Date(0), BACKGROUND_CONTEXT));
      refusals.push(remote.echo('fine', withAbortSignal(aborted.signal, BACKGROUND_CONTEXT)));
      refusals.push((remote.echo as (...args: unknown[]) => Promise<unknown>)('a', BACKGROUND_CONTEXT, 'extra'));
    }).not.toThrow();
    const codes = await Promise.all(refusals.map(async (refusal) => (await remoteErrorOf(refusal)).code));
    expect(codes).toEqual(['invalid_argument', 'cancelled', 'invalid_argument']);
    expect(fixture.frames.sent.length).toBe(sentBefore);
  });

  it('a result that breaks its schema is invalid_result', async () => {
    const { remote } = await connectProbe();
    const error = await remoteErrorOf(remote.badResult(BACKGROUND_CONTEXT));
    expect(error.code).toBe('invalid_result');
    expect(error.message).not.toContain('not a number');
  });
});
