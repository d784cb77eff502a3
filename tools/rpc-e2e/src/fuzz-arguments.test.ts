import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { RemoteError, type RemoteErrorEnvelope } from '@pi/remote';
import {
  Index,
  TRANSPORTS,
  eventually,
  openRawChannel,
  serveHost,
  type HostTransport,
  type IndexProgress,
  type RawChannel,
} from '@pi/test-support';
import { contextShaped, fuzzCarrier, fuzzEnvelope, fuzzKey, fuzzPath, wireText } from './fuzz-arbitraries';
import { startFuzzHost, type FuzzHost } from './fuzz-host';
import { serverFrameViolations, wrongCodesFor } from './fuzz-wire';
import { decodedAsJson } from './json-oracle';

/** The outcome of a forged call that superjson refused to encode: nothing reached the server. */
const NOT_SENT = 'not sent';

class Point {
  constructor(readonly x: number) {}
}

/** JSON and near-JSON: Dates, Maps, Sets, bigints, boxed values, typed arrays, holes, null prototypes, hostile keys. */
const nearJson = fc.anything({
  key: fuzzKey,
  maxDepth: 3,
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withSparseArray: true,
  withTypedArray: true,
});

/** Everything a caller might hand the typed proxy: JSON, near-JSON and plainly not JSON. */
const anyArgument = fc.oneof(
  { weight: 6, arbitrary: nearJson },
  {
    weight: 2,
    arbitrary: fc.constantFrom<unknown>(
      undefined,
      null,
      -0,
      NaN,
      -Infinity,
      1n,
      Symbol('s'),
      () => 1,
      new Point(1),
      [undefined],
      { u: undefined },
    ),
  },
  { weight: 1, arbitrary: fc.jsonValue().map((value) => ({ value, [Symbol.for('hidden')]: 1 })) },
  {
    weight: 1,
    arbitrary: fc.jsonValue().map((value) => {
      const cyclic: Record<string, unknown> = { value };
      cyclic['self'] = { back: cyclic };
      return cyclic;
    }),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 120, max: 136 }).map((depth) => {
      let value: unknown = 0;
      for (let level = 0; level < depth; level++) value = level % 2 ? [value] : { d: value };
      return value;
    }),
  },
);

/**
 * A forged call: a path and an envelope, sent as plain JSON (`{ json }`) or through superjson, whose `meta` could
 * make a Date, Map or bigint arrive as one (the host refuses any `meta`, answering that request).
 */
const forgedCall = (refIds: fc.Arbitrary<string>) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.record({ path: fuzzPath, input: fuzzEnvelope(refIds), encoded: fc.constant(false) }) },
    {
      weight: 1,
      arbitrary: fc.record({
        path: fuzzPath,
        input: fc.record({ a: fc.array(nearJson, { maxLength: 2 }), c: fc.uuid(), t: fc.constant({}) }),
        encoded: fc.constant(true),
      }),
    },
  );

/** A well-formed call that claims to be someone: context-shaped fields beside and inside the envelope. */
const impostorCall = fc.record({
  path: fc.constant('probe.whoAmI'),
  encoded: fc.constant(false),
  input: fc.record(
    {
      a: fc.constant([]),
      c: fc.uuid(),
      t: fuzzCarrier,
      ctx: contextShaped,
      context: contextShaped,
      clientId: wireText,
      principal: wireText,
    },
    { requiredKeys: ['a', 'c'] },
  ),
});

type Outcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: unknown };
const settle = (promise: Promise<unknown>): Promise<Outcome> =>
  promise.then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, error }),
  );

/** Every rejection's code; a rejection that is not a RemoteError shows up as "not a RemoteError". */
const codesOf = (outcomes: readonly Outcome[]) =>
  outcomes.flatMap((outcome) =>
    outcome.ok
      ? []
      : [outcome.error instanceof RemoteError ? outcome.error.code : `not a RemoteError: ${String(outcome.error)}`],
  );

describe.each(TRANSPORTS)('fuzzed arguments over %s', (kind) => {
  let host: FuzzHost;
  let served: HostTransport;
  let round = 0;
  beforeEach(async () => {
    host = await startFuzzHost(kind);
    served = await serveHost(kind, host.fixture.host);
  });
  afterEach(async () => {
    try {
      await host.bystanderRound(++round);
      await host.freshClientIsServed();
      expect(serverFrameViolations(host.fixture.frames.sent, host.fixture.frames.received)).toEqual([]);
    } finally {
      await served.close();
      await host.close();
    }
  });

  /**
   * Opens a raw channel, runs `attack` on it while the bystander is served, closes it, and checks that the host let
   * go of it and sent it nothing it should not have.
   */
  async function underAttack(attack: (raw: RawChannel) => Promise<void>): Promise<void> {
    const [sentFrom, receivedFrom] = [served.frames.sent.length, served.frames.received.length];
    const raw = await openRawChannel(served.socketFactory);
    try {
      await Promise.all([attack(raw), host.bystanderRound(++round)]);
    } finally {
      raw.close();
    }
    await host.backToBaseline();
    expect(
      serverFrameViolations(served.frames.sent.slice(sentFrom), served.frames.received.slice(receivedFrom)),
    ).toEqual([]);
  }

  /** Sends one forged call; a value superjson will not encode (a `__proto__` key) stays on this side. */
  function send(raw: RawChannel, call: { path: string; input: unknown; encoded?: boolean }): Promise<Outcome> {
    let sending: Promise<unknown>;
    try {
      sending = call.encoded === true ? raw.mutateEncoded(call.path, call.input) : raw.mutate(call.path, call.input);
    } catch {
      return Promise.resolve({ ok: true, value: NOT_SENT });
    }
    return settle(sending);
  }

  it('forged envelopes on any path get a result or a documented code, never internal, and the forger leaves nothing behind', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof({ weight: 4, arbitrary: forgedCall(wireText) }, impostorCall), {
          minLength: 1,
          maxLength: 6,
        }),
        async (calls) => {
          await underAttack(async (raw) => {
            const outcomes = await Promise.all(calls.map((call) => send(raw, call)));
            expect(wrongCodesFor(codesOf(outcomes))).toEqual([]);
            // Whatever context-shaped fields the envelope carried, the caller is who the server says it is.
            const identities = outcomes.filter(
              (outcome, position) =>
                outcome.ok && outcome.value !== NOT_SENT && calls[position]?.path === 'probe.whoAmI',
            );
            for (const identity of identities)
              expect(identity).toMatchObject({
                value: { value: { principal: 'fixture-user', clientId: expect.stringMatching(/^[0-9a-f-]{36}$/) } },
              });
            await eventually(() => host.fixture.stats().every((stats) => stats.activeCalls === 0));
          });
        },
      ),
      { numRuns: 80 },
    );
  });

  it("another connection's reference and call ids reach nothing: its wait goes on, its job is untouched, and it completes", async () => {
    const index = await host.bystander.client.use(Index);
    const job = await index.start('/victim', BACKGROUND_CONTEXT);
    let settled = false;
    const waiting = settle(job.wait(BACKGROUND_CONTEXT).finally(() => (settled = true)));
    await eventually(() => host.fixture.stats()[0]?.activeCalls === 1);
    const { refs, callIds } = idsOnTheWire(host.fixture.frames.sent, host.fixture.frames.received);
    expect(refs).toHaveLength(1);
    host.rebase();

    const victimRef = fc.constantFrom(...refs);
    const victimCallId = fc.constantFrom(...callIds);
    // Aimed at the bystander's own ids: a cancel finds no such call here (null), a reference is unknown here.
    const targeted = fc.oneof(
      victimCallId.map((c) => ({ path: '$rpc.cancel', input: { c }, expected: { ok: true, value: null } })),
      fc
        .record({
          r: victimRef,
          m: fc.constantFrom('cancel', 'advance', 'wait'),
          a: fc.constantFrom([], [100]),
          c: victimCallId,
          t: fc.constant({}),
        })
        .map((input) => ({ path: '$rpc.invoke', input, expected: { ok: false, code: 'stale_reference' } })),
      victimRef.map((r) => ({ path: '$rpc.release', input: { r }, expected: { ok: false, code: 'stale_reference' } })),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(targeted, { minLength: 1, maxLength: 4 }),
        fc.array(forgedCall(victimRef), { maxLength: 4 }),
        async (aimed, forged) => {
          await underAttack(async (raw) => {
            const [hits, others] = await Promise.all([
              Promise.all(aimed.map((call) => send(raw, call))),
              Promise.all(forged.map((call) => send(raw, call))),
            ]);
            expect(hits.map((outcome) => (outcome.ok ? outcome : { ok: false, code: codesOf([outcome])[0] }))).toEqual(
              aimed.map((call) => call.expected),
            );
            expect(wrongCodesFor(codesOf(others))).toEqual([]);
          });
          expect(settled).toBe(false);
          expect(host.index.jobs[0]?.progress.value).toEqual({ status: 'running', indexed: 0 });
        },
      ),
      { numRuns: 50 },
    );
    await job.advance(100, BACKGROUND_CONTEXT);
    expect(await waiting).toEqual({ ok: true, value: { status: 'done', indexed: 100 } satisfies IndexProgress });
  });

  it('a made-up or foreign reference id is stale_reference for every reference operation', async () => {
    const reference = fc.oneof(
      fc.string({ minLength: 1, maxLength: 128 }),
      fc.stringMatching(/^ref_[A-Za-z0-9_-]{22}$/),
    );
    await fc.assert(
      fc.asyncProperty(
        reference,
        fc.constantFrom('wait', 'advance', 'cancel', 'echo', 'toString', '__proto__'),
        async (r, m) => {
          await underAttack(async (raw) => {
            const invoked = await settle(raw.mutate('$rpc.invoke', { r, m, a: [], c: '1', t: {} }));
            const released = await settle(raw.mutate('$rpc.release', { r }));
            const watched = await new Promise<RemoteErrorEnvelope>((resolve) => {
              raw.channel.watch({ ref: r }, { next: () => undefined, error: resolve });
            });
            expect(codesOf([invoked, released])).toEqual(['stale_reference', 'stale_reference']);
            expect(watched.code).toBe('stale_reference');
          });
        },
      ),
      { numRuns: 40 },
    );
  });

  it('any value through the typed proxy round-trips exactly when it is strict JSON, and is otherwise refused with invalid_argument before a frame is sent', async () => {
    const { probe } = host.bystander;
    const sent = host.fixture.frames.sent;
    await fc.assert(
      fc.asyncProperty(anyArgument, async (value) => {
        const json = decodedAsJson(value);
        const framesBefore = sent.length;
        const outcome = await settle(probe.echo(value, BACKGROUND_CONTEXT));
        if (json !== undefined) {
          expect(outcome).toStrictEqual({ ok: true, value: json.decoded });
          expect(sent.length).toBe(framesBefore + 1);
        } else {
          expect(outcome.ok).toBe(false);
          expect(codesOf([outcome])).toEqual(['invalid_argument']);
          expect(sent.length).toBe(framesBefore);
        }
      }),
      { numRuns: 300 },
    );
  });
});

/** The reference ids a client was handed and the call ids it used, read off its frames. */
function compactCallId(frame: string): string[] {
  if (!frame.startsWith('[')) return [];
  const parsed: unknown = JSON.parse(frame);
  return Array.isArray(parsed) && typeof parsed[3] === 'string' ? [parsed[3]] : [];
}

function idsOnTheWire(sent: readonly string[], received: readonly string[]): { refs: string[]; callIds: string[] } {
  // A reference arrives as `"ref":"…"` in a tRPC reply, or as `[id,1,"…"]` in a compact call's.
  const refs = received.flatMap((frame) =>
    [...frame.matchAll(/(?:"ref":|^\[\d+,1,)"(ref_[A-Za-z0-9_-]+)"/g)].map((match) => match[1] ?? ''),
  );
  // A call id is `"c":"…"` in a tRPC request, and the fourth element of a compact call.
  const callIds = sent.flatMap((frame) => [
    ...[...frame.matchAll(/"c":"([^"]+)"/g)].map((match) => match[1] ?? ''),
    ...compactCallId(frame),
  ]);
  return { refs: [...new Set(refs)], callIds: [...new Set(callIds)] };
}
