import fc from 'fast-check';

/**
 * Generators of hostile input for the fuzz suites: text, JSON, call envelopes and whole tRPC frames.
 *
 * Text that the server may quote back in an error (paths, member names, object keys) is drawn from characters
 * that exercise escaping and unicode but cannot spell what the wire scan looks for ("=>", "at x:1:2",
 * "function(", "node_modules"), so a scan finding is always the server's own doing.
 */
const TEXT_UNITS = [
  'a',
  'b',
  'x',
  'y',
  'z',
  'Z',
  '0',
  '9',
  ' ',
  '.',
  '$',
  '_',
  '-',
  '"',
  "'",
  '\\',
  '/',
  '{',
  '}',
  ',',
  '%',
  '\u0000',
  '\u001f',
  '\u007f',
  '\u2028',
  'é',
  '日',
  '👍',
  '\ud800',
];

export const wireText = fc.string({ unit: fc.constantFrom(...TEXT_UNITS), maxLength: 12 });

/** Keys a forger would try: prototype names, context-shaped names, and any text. */
const CONTEXT_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'then',
  'abortSignal',
  'signal',
  'telemetryContext',
  'context',
  'ctx',
  'clientId',
  'pi.client-id',
  'pi.caller-identity',
  'principal',
  'values',
];

export const fuzzKey = fc.oneof(fc.constantFrom(...CONTEXT_KEYS), wireText);

const leaf = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -1, 2 ** 53, -(2 ** 53), 1e308, 5e-324),
  wireText,
);

/** JSON values (as JSON.parse would build them: own `__proto__` keys included) with hostile keys. */
export const fuzzJson: fc.Arbitrary<unknown> = fc.letrec<{
  value: unknown;
  array: unknown[];
  object: Record<string, unknown>;
}>((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.array(fc.tuple(fuzzKey, tie('value')), { maxLength: 4 }).map((entries) => Object.fromEntries(entries)),
})).value;

/** Objects shaped like a serialized Context, signal or telemetry object. */
export const contextShaped = fc.record(
  {
    abortSignal: fc.record({ aborted: fc.boolean(), reason: fuzzJson }),
    telemetryContext: fc.oneof(
      fuzzJson,
      fc.constant({ traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' }),
    ),
    clientId: wireText,
    values: fc.record({ 'pi.client-id': wireText, 'pi.caller-identity': fc.record({ principal: wireText }) }),
    signal: fc.boolean(),
  },
  { requiredKeys: [] },
);

/** Nested arrays and objects `depth` levels deep, around and well past the strict-JSON depth limit. */
const deepValue = fc.tuple(fc.integer({ min: 100, max: 1000 }), fc.boolean()).map(([depth, objects]) => {
  let value: unknown = 'bottom';
  for (let level = 0; level < depth; level++) value = objects ? { d: value } : [value];
  return value;
});

const bigString = fc.integer({ min: 1_000, max: 8_000 }).map((length) => 'ß'.repeat(length));

/** What a forger puts where a value goes. */
const hostileValue = fc.oneof(
  { weight: 4, arbitrary: fuzzJson },
  { weight: 1, arbitrary: contextShaped },
  { weight: 1, arbitrary: deepValue },
  { weight: 1, arbitrary: bigString },
);

/** A W3C carrier, a broken one, or anything at all. */
export const fuzzCarrier = fc.oneof(
  fc.constant({}),
  fc.record(
    {
      traceparent: fc.oneof(wireText, fc.constant('00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01')),
      tracestate: wireText,
    },
    { requiredKeys: [] },
  ),
  fc.record({ traceparent: fc.string({ minLength: 129, maxLength: 200 }) }),
  hostileValue,
);

/** Call ids: the small integers a typed client uses (so another connection's live ids), and anything else. */
const fuzzCallId = fc.oneof(
  fc.integer({ min: 1, max: 40 }).map(String),
  wireText,
  fc.string({ minLength: 65, maxLength: 80 }),
  fuzzJson,
);

/**
 * The inputs of every procedure (`{ a, c, t }`, `{ r, m, a, c, t }`, `{ r }`, `{ c }`, `{ ids }`, `{ requestId, response | error }`):
 * well-formed shells with hostile contents, broken shells, and anything.
 */
export function fuzzEnvelope(refIds: fc.Arbitrary<string> = wireText): fc.Arbitrary<unknown> {
  const args = fc.oneof(
    { weight: 4, arbitrary: fc.array(hostileValue, { maxLength: 3 }) },
    { weight: 1, arbitrary: hostileValue },
    { weight: 1, arbitrary: fc.array(fc.constant(0), { minLength: 65, maxLength: 70 }) },
  );
  const wellFormed = fc.record({
    a: fc.oneof(fc.tuple(hostileValue), fc.array(hostileValue, { maxLength: 3 })),
    c: fc.uuid(),
    t: fuzzCarrier,
  });
  const shell = fc.record(
    {
      a: args,
      c: fuzzCallId,
      t: fuzzCarrier,
      r: fc.oneof(refIds, fuzzJson),
      m: fc.oneof(fc.constantFrom('wait', 'advance', 'cancel', 'echo'), wireText),
      ids: fc.oneof(fc.array(fc.oneof(fc.constant('ask'), wireText), { maxLength: 3 }), fuzzJson),
      requestId: fc.oneof(wireText, fc.uuid(), fuzzJson),
      response: fuzzJson,
      error: fc.oneof(
        fc.record({
          code: fc.oneof(fc.constantFrom('cancelled', 'internal', 'Not A Code'), wireText),
          message: wireText,
          data: fuzzJson,
        }),
        fuzzJson,
      ),
      ctx: contextShaped,
      clientId: wireText,
    },
    { requiredKeys: [] },
  );
  return fc.oneof(
    { weight: 3, arbitrary: wellFormed },
    { weight: 3, arbitrary: shell },
    { weight: 1, arbitrary: hostileValue },
  );
}

/** Paths a host serves (none that fails on purpose or blocks), plus unknown services and members, and `$rpc` garbage. */
const KNOWN_PATHS = [
  'probe.echo',
  'probe.nothing',
  'probe.whoAmI',
  'probe.badResult',
  'catalog.select',
  'catalog.cycleThinking',
  'catalog.refresh',
  'catalog.$watch',
  'index.start',
  '$rpc.hello',
  '$rpc.invoke',
  '$rpc.watch',
  '$rpc.release',
  '$rpc.cancel',
  '$rpc.interactions',
  '$rpc.reply',
] as const;

export const fuzzPath = fc.oneof(
  { weight: 3, arbitrary: fc.constant('probe.echo') },
  { weight: 5, arbitrary: fc.constantFrom(...KNOWN_PATHS) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('probe', 'catalog', 'index', '$rpc', 'vault', 'ghost', ''), fuzzKey)
      .map(([service, member]) => `${service}.${member}`),
  },
  { weight: 1, arbitrary: wireText },
);

/** superjson's `meta`, mangled: annotations a server must not trust, on paths that may not exist. */
const fuzzMeta = fc.record(
  {
    values: fc.oneof(
      fuzzJson,
      fc.dictionary(
        fc.constantFrom(
          'a',
          'a.0',
          'a.1',
          'a.0.x',
          'c',
          't',
          'r',
          '',
          '__proto__',
          'a.__proto__',
          'a.constructor.prototype',
        ),
        fc.constantFrom<unknown>(
          ['undefined'],
          ['bigint'],
          ['Date'],
          ['regexp'],
          ['set'],
          ['map'],
          ['number'],
          ['Error'],
          ['URL'],
          ['class', 'Point'],
          ['symbol', 's'],
          ['custom', 'x'],
          ['nope'],
          'bigint',
          [['map', { '0': ['bigint'] }]],
        ),
      ),
    ),
    referentialEqualities: fc.oneof(
      fuzzJson,
      fc.constantFrom<unknown>({ a: ['c'] }, { 'a.0': ['a.1'] }, { '': ['a.0'] }, ['a', ['t']]),
    ),
    v: fc.constantFrom<unknown>(1, 2, 'x'),
  },
  { requiredKeys: [] },
);

/** A request tRPC accepts as such, to a path a forger picks, with a hostile envelope: most of these reach pi's code. */
const trpcRequest = fc.record(
  {
    id: fc.oneof({ weight: 4, arbitrary: fc.nat({ max: 20 }) }, fc.string({ minLength: 1, maxLength: 4 })),
    jsonrpc: fc.constant('2.0'),
    method: fc.oneof(
      { weight: 6, arbitrary: fc.constant('mutation') },
      fc.constantFrom('subscription', 'query', 'subscription.stop'),
    ),
    params: fc.record(
      {
        path: fuzzPath,
        input: fc.oneof(
          { weight: 6, arbitrary: fuzzEnvelope().map((json) => ({ json })) },
          { weight: 1, arbitrary: fuzzJson },
        ),
        lastEventId: wireText,
      },
      { requiredKeys: ['path', 'input'] },
    ),
  },
  { requiredKeys: ['id', 'method', 'params'] },
);

/** A request-shaped object broken anywhere: its id, version, method, params, or superjson meta. */
const brokenRequest = fc.record(
  {
    id: fc.oneof(fc.nat(), fc.constant(null), fc.double(), wireText, fuzzJson),
    jsonrpc: fc.constantFrom<unknown>('2.0', '1.0', 2, null),
    method: fc.oneof(
      fc.constantFrom('mutation', 'subscription', 'query', 'subscription.stop', 'connectionParams', 'reconnect'),
      fuzzJson,
    ),
    params: fc.oneof(
      fc.record(
        {
          path: fc.oneof(fuzzPath, fuzzJson),
          input: fc.oneof(fc.record({ json: fuzzEnvelope(), meta: fuzzMeta }), fuzzJson),
          lastEventId: fc.oneof(wireText, fuzzJson),
        },
        { requiredKeys: [] },
      ),
      fuzzJson,
    ),
  },
  { requiredKeys: [] },
);

const fuzzRequest = fc.oneof({ weight: 4, arbitrary: trpcRequest }, { weight: 1, arbitrary: brokenRequest });

/**
 * A compact call (`[id, path, args, callId, trace?]`, docs/protocol.md) with hostile contents, or one broken anywhere:
 * too short or long, an id that is no integer, a path that is no string.
 */
const compactCall = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(fc.nat({ max: 20 }), fuzzPath, fc.array(hostileValue, { maxLength: 3 }), fuzzCallId)
      .chain((call) => fc.option(fuzzCarrier, { nil: undefined }).map((t) => (t === undefined ? call : [...call, t]))),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.oneof(fc.nat({ max: 20 }), fc.double(), fc.constant(-0)), fc.array(fuzzJson, { maxLength: 6 }))
      .map(([id, rest]) => [id, ...rest]),
  },
);

/** Any text frame a hostile or broken client might send once connected. */
export const fuzzFrame: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 64 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      '{',
      '[',
      ']',
      'null',
      'true',
      '0',
      '""',
      '{}',
      '[]',
      '{"id":',
      '[[[[',
      '{"__proto__":{}}',
      'PING',
      'PONG',
    ),
  },
  { weight: 2, arbitrary: fuzzJson.map((value) => JSON.stringify(value) ?? 'null') },
  { weight: 12, arbitrary: fuzzRequest.map((request) => JSON.stringify(request)) },
  { weight: 4, arbitrary: compactCall.map((call) => JSON.stringify(call)) },
  {
    weight: 2,
    arbitrary: fuzzRequest
      .map((request) => JSON.stringify(request))
      .chain((frame) => fc.nat({ max: frame.length - 1 }).map((cut) => frame.slice(0, cut))),
  },
  {
    weight: 3,
    arbitrary: fc
      .oneof(
        fc.array(trpcRequest, { minLength: 1, maxLength: 12 }),
        fc.array(fc.oneof(fuzzRequest, fuzzJson), { minLength: 1, maxLength: 12 }),
      )
      .map((batch) => JSON.stringify(batch)),
  },
);
