import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BACKGROUND_CONTEXT, type Context } from '@pi/context';
import { defineRemoteService } from '@pi/remote';
import {
  Probe,
  TRANSPORTS,
  Vault,
  createProbe,
  openRawChannel,
  remoteErrorOf,
  serveHost,
  startRpcFixture,
  type HostTransport,
  type RawChannel,
  type RpcFixture,
} from '@pi/test-support';

const SECRET = 'secret-9f2c-token';

/** A service whose failures carry a secret that lives only on the server. */
interface LeakyService {
  crash(context: Context): Promise<void>;
  crashWithCause(context: Context): Promise<void>;
  throwString(context: Context): Promise<void>;
  throwEnvelope(context: Context): Promise<void>;
}

const Leaky = defineRemoteService<LeakyService>('leaky', {
  methods: {
    crash: { args: [], result: z.void() },
    crashWithCause: { args: [], result: z.void() },
    throwString: { args: [], result: z.void() },
    throwEnvelope: { args: [], result: z.void() },
  },
  state: {},
  events: {},
});

const leaky: LeakyService = {
  async crash() {
    throw new Error(`database password is ${SECRET}`);
  },
  async crashWithCause() {
    throw new Error('wrapper', { cause: new Error(SECRET) });
  },
  async throwString() {
    throw SECRET;
  },
  async throwEnvelope() {
    // Looks like an envelope, but only a RemoteError is trusted to choose its code and message.
    throw { code: 'not_authorized', message: SECRET };
  },
};

/** The client's view of a service the host never provided, and of a member the host's Probe lacks. */
const Ghost = defineRemoteService<{ haunt(context: Context): Promise<void> }>('ghost', {
  methods: { haunt: { args: [], result: z.void() } },
  state: {},
  events: {},
});
const ProbeWithExtra = defineRemoteService<{
  echo(value: unknown, context: Context): Promise<unknown>;
  vanish(context: Context): Promise<void>;
}>('probe', {
  methods: { echo: { args: [z.unknown()], result: z.unknown() }, vanish: { args: [], result: z.void() } },
  state: {},
  events: {},
});
const ForgedVault = defineRemoteService<{ secret(context: Context): Promise<string> }>('vault', {
  methods: { secret: { args: [], result: z.string() } },
  state: {},
  events: {},
});

describe.each(TRANSPORTS)('errors over %s', (kind) => {
  let fixture: RpcFixture;
  let served: HostTransport | undefined;
  let raw: RawChannel | undefined;
  afterEach(async () => {
    raw?.close();
    raw = undefined;
    await served?.close();
    served = undefined;
    await fixture.close();
  });

  async function start() {
    fixture = await startRpcFixture(kind, {
      provide: (registry) => {
        registry.provide(Probe, createProbe());
        registry.provide(Leaky, leaky);
        registry.provide(Vault, { secret: () => SECRET });
      },
    });
    return fixture.connect();
  }

  async function openRaw() {
    served = await serveHost(kind, fixture.host);
    raw = await openRawChannel(served.socketFactory);
    return raw;
  }

  it('an expected service error keeps its code and message', async () => {
    const probe = await (await start()).use(Probe);
    const error = await remoteErrorOf(probe.fail('unknown_model', 'No model local/huge', BACKGROUND_CONTEXT));
    expect(error.toEnvelope()).toEqual({ code: 'unknown_model', message: 'No model local/huge' });
  });

  it('a service error with a code that is not a stable code word becomes internal', async () => {
    const probe = await (await start()).use(Probe);
    expect((await remoteErrorOf(probe.fail('Not A Code!', 'message', BACKGROUND_CONTEXT))).code).toBe('internal');
  });

  it('a plain thrown Error arrives as internal with a generic message', async () => {
    const probe = await (await start()).use(Probe);
    const error = await remoteErrorOf(probe.crash('secret-xyz', BACKGROUND_CONTEXT));
    expect(error.toEnvelope()).toEqual({ code: 'internal', message: 'Internal error' });
    // The client sent the text as an argument; nothing the server sent back may repeat it.
    expect(fixture.frames.received.join('\n')).not.toContain('secret-xyz');
  });

  it.each(['crash', 'crashWithCause', 'throwString', 'throwEnvelope'] as const)(
    'a server-side secret in a %s failure reaches no frame',
    async (member) => {
      const service = await (await start()).use(Leaky);
      const error = await remoteErrorOf(service[member](BACKGROUND_CONTEXT));
      expect(error.toEnvelope()).toEqual({ code: 'internal', message: 'Internal error' });
      const wire = [...fixture.frames.sent, ...fixture.frames.received].join('\n');
      expect(wire).not.toContain(SECRET);
      expect(wire).not.toMatch(/"stack"|\n\s+at |"cause"/);
    },
  );

  it('a service the host does not provide is unknown_service', async () => {
    const client = await start();
    expect((await remoteErrorOf(client.use(Ghost))).code).toBe('unknown_service');
    const { channel } = await openRaw();
    const error = await remoteErrorOf(
      channel.call({ target: { service: 'ghost' }, member: 'haunt', args: [], trace: {} }, undefined),
    );
    expect(error.code).toBe('unknown_service');
  });

  it('a member the service does not expose is unknown_member', async () => {
    const client = await start();
    const probe = await client.use(ProbeWithExtra);
    expect(await probe.echo('still works', BACKGROUND_CONTEXT)).toBe('still works');
    expect((await remoteErrorOf(probe.vanish(BACKGROUND_CONTEXT))).code).toBe('unknown_member');
  });

  it.each(['toString', 'constructor', '__proto__', 'hasOwnProperty', '$watch', 'then', ''])(
    'the inherited or reserved member name "%s" is unknown_member',
    async (member) => {
      await start();
      const { mutate } = await openRaw();
      const error = await remoteErrorOf(mutate(`probe.${member}`, { a: [], c: '1', t: {} }));
      expect(error.code).toBe('unknown_member');
    },
  );

  it.each([
    ['__proto__', 'unknown_service'],
    ['constructor', 'unknown_service'],
    ['toString', 'unknown_service'],
    ['vault', 'unknown_service'],
    ['$rpc', 'unknown_member'],
  ])('the path "%s.x" is %s', async (service, code) => {
    await start();
    const { mutate } = await openRaw();
    expect((await remoteErrorOf(mutate(`${service}.x`, { a: [], c: '1', t: {} }))).code).toBe(code);
  });

  it('a local service is unreachable remotely, even through a token that claims its id', async () => {
    const client = await start();
    const error = await remoteErrorOf(client.use(ForgedVault));
    expect(error.code).toBe('unknown_service');
    const { mutate } = await openRaw();
    expect((await remoteErrorOf(mutate('vault.secret', { a: [], c: '1', t: {} }))).code).toBe('unknown_service');
    expect([...fixture.frames.received, ...(served?.frames.received ?? [])].join('\n')).not.toContain(SECRET);
  });

  it('the server checks arguments itself: non-JSON sent past the client check is invalid_argument', async () => {
    await start();
    const { mutate, mutateEncoded } = await openRaw();
    // superjson frames could carry a Date (through `meta`); the server refuses any input that uses meta.
    const dated = await remoteErrorOf(mutateEncoded('probe.echo', { a: [new Date(0)], c: '0', t: {} }));
    expect(dated.code).toBe('invalid_argument');
    const arity = await remoteErrorOf(mutate('probe.fail', { a: ['only_code'], c: '1', t: {} }));
    expect(arity.code).toBe('invalid_argument');
    const reserved = await remoteErrorOf(
      mutate('probe.echo', { a: [{ constructor: { prototype: 1 } }], c: '2', t: {} }),
    );
    expect(reserved.data).toMatchObject({ kind: 'reserved_key' });
  });

  it('a "__proto__" key sent raw is refused as reserved_key, and pollutes nothing', async () => {
    await start();
    const { mutate } = await openRaw();
    const forged = JSON.parse('{"__proto__":{"polluted":true},"kept":1}') as unknown;
    const refused = await remoteErrorOf(mutate('probe.echo', { a: [forged], c: '1', t: {} }));
    expect(refused.code).toBe('invalid_argument');
    expect(refused.data).toMatchObject({ kind: 'reserved_key' });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('a malformed call envelope is invalid_argument', async () => {
    await start();
    const { mutate } = await openRaw();
    for (const input of [
      null,
      { a: 'not-a-list', c: '1', t: {} },
      { a: [], t: {} },
      { a: [], c: '', t: {} },
      { a: new Array(65).fill(0), c: '1', t: {} },
    ]) {
      expect((await remoteErrorOf(mutate('probe.nothing', input))).code).toBe('invalid_argument');
    }
  });
});
