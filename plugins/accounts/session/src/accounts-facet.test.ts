import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Accounts, KeyEntryInteraction } from '@pi/accounts';
import { BACKGROUND_CONTEXT } from '@pi/context';
import type { InMemoryTelemetry } from '@pi/context/testing';
import { TEST_SESSION_TOKEN } from '@pi/host-session/testing';
import {
  TRANSPORTS,
  eventually,
  openRawChannel,
  remoteErrorOf,
  wireViolations,
  type HostTransport,
} from '@pi/test-support';
import { captureLogs, silentProvider, startAccountsHost, type AccountsHost } from '../test/test-doubles';

const SECRET = 'sk-or-v1-5e1f0c9d8b7a6f5e4d3c2b1a';

describe.each(TRANSPORTS)('the accounts façade over %s', (kind) => {
  let host: AccountsHost;
  let transport: HostTransport;
  let telemetry: InMemoryTelemetry;
  const connect = () => host.connect();

  beforeEach(async () => {
    host = await startAccountsHost(kind, [silentProvider('openrouter')]);
    ({ transport, telemetry } = host);
  });

  afterEach(() => host.close());

  it('lists the registry providers as not configured until a key is stored', async () => {
    const accounts = await (await connect()).use(Accounts);
    await eventually(() => accounts.state.value.providers.length > 0);
    expect(accounts.state.value).toEqual({ providers: [{ provider: 'openrouter', configured: false }] });
  });

  it('stores a key that crosses once as an argument and never appears in frames, state, spans or logs', async () => {
    const logs = captureLogs();
    try {
      const first = await (await connect()).use(Accounts);
      await first.setKey('openrouter', SECRET, BACKGROUND_CONTEXT);
      await eventually(() => first.state.value.providers.some((entry) => entry.configured));
      const second = await (await connect()).use(Accounts);
      expect(second.state.value).toEqual({ providers: [{ provider: 'openrouter', configured: true }] });

      // The provider plugin reads it locally, and the file is private.
      expect(await host.credentials().get('openrouter')).toBe(SECRET);
      const file = join(host.session.directory, 'config', 'credentials.json');
      expect((await stat(file)).mode & 0o777).toBe(0o600);

      // A malformed key is refused by the client's copy of the contract before it is sent.
      const rejected = await remoteErrorOf(first.setKey('openrouter', `${SECRET} with a space`, BACKGROUND_CONTEXT));
      expect(rejected.code).toBe('invalid_argument');

      await first.remove('openrouter', BACKGROUND_CONTEXT);
      await eventually(() => second.state.value.providers.every((entry) => !entry.configured));
      expect(await host.credentials().get('openrouter')).toBeUndefined();
    } finally {
      logs.restore();
    }

    const sentWithSecret = transport.frames.sent.filter((frame) => frame.includes(SECRET));
    expect(sentWithSecret).toHaveLength(1);
    expect(sentWithSecret[0]).toContain('accounts.setKey');
    expect(wireViolations(transport.frames.received, [SECRET])).toEqual([]);
    expect(transport.frames.received.length).toBeGreaterThan(0);
    const spans = telemetry.spans();
    expect(spans.map((span) => span.name)).toContain('rpc.server accounts.setKey');
    expect(JSON.stringify(spans)).not.toContain(SECRET);
    expect(logs.text()).not.toContain(SECRET);
  });

  it('login asks the calling client for the key with the sensitive interaction, and the key is only in that answer', async () => {
    const logs = captureLogs();
    const bystander = await connect();
    const bystanderAsked: string[] = [];
    bystander.handle(KeyEntryInteraction, async (request) => {
      bystanderAsked.push(request.provider);
      return { outcome: 'cancelled' };
    });
    const client = await connect();
    const asked: string[] = [];
    client.handle(KeyEntryInteraction, async (request) => {
      asked.push(request.provider);
      return { outcome: 'entered' as const, key: SECRET };
    });
    let outcome: unknown;
    try {
      const accounts = await client.use(Accounts);
      outcome = await accounts.login('openrouter', BACKGROUND_CONTEXT);
      await eventually(() => accounts.state.value.providers.some((entry) => entry.configured));
      expect(await host.credentials().get('openrouter')).toBe(SECRET);
      const described = JSON.stringify(await client.describe(BACKGROUND_CONTEXT));
      expect(described).toContain('login');
      expect(described).not.toContain(SECRET);
    } finally {
      logs.restore();
    }
    expect(outcome).toEqual({ outcome: 'stored' });
    expect(asked).toEqual(['openrouter']);
    expect(bystanderAsked).toEqual([]);
    // The key crossed once, client to session, in the interaction's answer; nothing the session sent holds it.
    const sentWithSecret = transport.frames.sent.filter((frame) => frame.includes(SECRET));
    expect(sentWithSecret).toHaveLength(1);
    expect(sentWithSecret[0]).not.toContain('accounts.login');
    expect(wireViolations(transport.frames.received, [SECRET])).toEqual([]);
    expect(JSON.stringify(telemetry.spans())).not.toContain(SECRET);
    expect(logs.text()).not.toContain(SECRET);
  });

  it('login stores nothing when the person cancels, and refuses a malformed key without quoting it', async () => {
    const client = await connect();
    let answer: { outcome: 'entered'; key: string } | { outcome: 'cancelled' } = { outcome: 'cancelled' };
    client.handle(KeyEntryInteraction, async () => answer);
    const accounts = await client.use(Accounts);
    expect(await accounts.login('openrouter', BACKGROUND_CONTEXT)).toEqual({ outcome: 'cancelled' });
    answer = { outcome: 'entered', key: `${SECRET} with spaces` };
    const refused = await remoteErrorOf(accounts.login('openrouter', BACKGROUND_CONTEXT));
    expect(refused.message).not.toContain(SECRET);
    expect(JSON.stringify(refused.data ?? null)).not.toContain(SECRET);
    expect(await host.credentials().get('openrouter')).toBeUndefined();
  });

  it('login fails with no_handler when the calling client cannot ask for a key', async () => {
    const typing = await connect();
    typing.handle(KeyEntryInteraction, async () => ({ outcome: 'entered' as const, key: SECRET }));
    const accounts = await (await connect()).use(Accounts);
    expect((await remoteErrorOf(accounts.login('openrouter', BACKGROUND_CONTEXT))).code).toBe('no_handler');
    expect(await host.credentials().get('openrouter')).toBeUndefined();
  });

  it('refuses a forged call with a malformed key without echoing the key', async () => {
    using raw = await openRawChannel(transport.socketFactory, { token: TEST_SESSION_TOKEN });
    const error = await remoteErrorOf(raw.mutate('accounts.setKey', { a: ['openrouter', `${SECRET}\n`], c: '1' }));
    expect(error.code).toBe('invalid_argument');
    expect(transport.frames.sent.some((frame) => frame.includes(SECRET))).toBe(true);
    expect(wireViolations(transport.frames.received, [SECRET])).toEqual([]);
    expect(await host.credentials().list()).toEqual([]);
  });

  it('follows keys written by other local plugins', async () => {
    const accounts = await (await connect()).use(Accounts);
    await host.credentials().set('anthropic', SECRET);
    await eventually(() => accounts.state.value.providers.length === 2);
    expect(accounts.state.value.providers).toEqual([
      { provider: 'anthropic', configured: true },
      { provider: 'openrouter', configured: false },
    ]);
  });

  it('never lets a peer reach the local credential store', async () => {
    using raw = await openRawChannel(transport.socketFactory, { token: TEST_SESSION_TOKEN });
    await host.credentials().set('openrouter', SECRET);
    expect((await remoteErrorOf(raw.mutate('credentials.get', { a: ['openrouter'], c: '1' }))).code).toBe(
      'unknown_service',
    );
    expect(wireViolations(transport.frames.received, [SECRET])).toEqual([]);
  });

  it('rejects an invalid provider id with invalid_argument', async () => {
    const accounts = await (await connect()).use(Accounts);
    expect((await remoteErrorOf(accounts.remove('../etc', BACKGROUND_CONTEXT))).code).toBe('invalid_argument');
  });
});
