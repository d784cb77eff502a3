import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Accounts, KeyEntryInteraction, OAuthInteraction, type OAuthResponse } from '@pi/accounts';
import { BACKGROUND_CONTEXT } from '@pi/context';
import type { InMemoryTelemetry } from '@pi/context/testing';
import {
  TRANSPORTS,
  eventually,
  remoteErrorOf,
  startAuthorizationServer,
  wireViolations,
  type AuthorizationServer,
  type HostTransport,
} from '@pi/test-support';
import { captureLogs, silentProvider, startAccountsHost, type AccountsHost } from './test-doubles';

// `/login` for providers that sign in through OAuth, end to end over each transport: the session runs the flow
// against a local authorization server, a client answers the sensitive OAuthInteraction, and the token the session
// receives is stored as the provider's key without ever crossing to a client.
describe.each(TRANSPORTS)('OAuth sign-in through the accounts façade over %s', (kind) => {
  let server: AuthorizationServer;
  let host: AccountsHost;
  let transport: HostTransport;
  let telemetry: InMemoryTelemetry;
  const connect = () => host.connect();

  beforeEach(async () => {
    server = await startAuthorizationServer();
    host = await startAccountsHost(kind, [
      silentProvider('acme-web', {
        flow: 'authorization_code',
        dialect: 'oauth2',
        authorizeUrl: `${server.origin}/authorize`,
        tokenUrl: `${server.origin}/token`,
        redirectUri: 'http://localhost:3000/pi-login',
        clientId: 'pi',
      }),
      silentProvider('acme-tv', {
        flow: 'device_code',
        deviceAuthorizationUrl: `${server.origin}/device`,
        tokenUrl: `${server.origin}/token`,
        clientId: 'pi',
      }),
    ]);
    ({ transport, telemetry } = host);
  });

  afterEach(async () => {
    await host.close();
    await server.close();
  });

  it('the authorization code flow: the pasted address crosses once, in the answer; the token never crosses', async () => {
    const logs = captureLogs();
    const client = await connect();
    const landings: string[] = [];
    client.handle(OAuthInteraction, async (request): Promise<OAuthResponse> => {
      if (request.flow !== 'authorization_code') throw new Error('expected the authorization code flow');
      const landing = server.signIn(request.url);
      landings.push(landing);
      return { outcome: 'pasted', text: landing };
    });
    client.handle(KeyEntryInteraction, async () => {
      throw new Error('a provider with a sign-in flow is not asked for a key');
    });
    let outcome: unknown;
    try {
      const accounts = await client.use(Accounts);
      outcome = await accounts.login('acme-web', BACKGROUND_CONTEXT);
      await eventually(() =>
        accounts.state.value.providers.some((entry) => entry.provider === 'acme-web' && entry.configured),
      );
    } finally {
      logs.restore();
    }
    expect(outcome).toEqual({ outcome: 'stored' });
    expect(await host.credentials().get('acme-web')).toBe(server.token);

    const code = new URL(landings[0] ?? '').searchParams.get('code') ?? '';
    expect(code).not.toBe('');
    const verifier = server.requests.find((request) => request.path === '/token')?.body['code_verifier'] ?? '';
    const secrets = [code, verifier, server.token];
    const sentWithCode = transport.frames.sent.filter((frame) => frame.includes(code));
    expect(sentWithCode).toHaveLength(1);
    expect(transport.frames.sent.some((frame) => frame.includes(server.token) || frame.includes(verifier))).toBe(false);
    expect(wireViolations(transport.frames.received, secrets)).toEqual([]);
    expect(JSON.stringify(telemetry.spans())).not.toMatch(new RegExp(secrets.join('|')));
    expect(logs.text()).not.toMatch(new RegExp(secrets.join('|')));
  });

  it('the device code flow: the client shows the code, the session polls, and the request closes by itself', async () => {
    server.answerDevicePolls(['authorization_pending', 'authorization_pending', 'token']);
    const client = await connect();
    const shown: Array<{ userCode: string; url: string; closed: boolean }> = [];
    client.handle(OAuthInteraction, (request, context) => {
      if (request.flow !== 'device_code') throw new Error('expected the device code flow');
      const entry = { userCode: request.userCode, url: request.url, closed: false };
      shown.push(entry);
      return new Promise((resolve) =>
        context.abortSignal?.addEventListener('abort', () => {
          entry.closed = true;
          resolve({ outcome: 'cancelled' });
        }),
      );
    });
    const accounts = await client.use(Accounts);
    expect(await accounts.login('acme-tv', BACKGROUND_CONTEXT)).toEqual({ outcome: 'stored' });
    expect(await host.credentials().get('acme-tv')).toBe(server.token);
    expect(shown).toEqual([
      { userCode: 'WDJB-MJHT', url: `${server.origin}/activate?user_code=WDJB-MJHT`, closed: true },
    ]);
    expect(wireViolations(transport.frames.received, [server.token])).toEqual([]);
    expect(transport.frames.sent.some((frame) => frame.includes(server.token))).toBe(false);
  });

  it("cancelling stores nothing; a refused sign-in is the provider's words; a paste from another sign-in is refused", async () => {
    const client = await connect();
    let answer: 'cancel' | 'wrong code' | 'other state' = 'cancel';
    client.handle(OAuthInteraction, async (request): Promise<OAuthResponse> => {
      const landing = new URL(server.signIn(request.url));
      if (answer === 'cancel') return { outcome: 'cancelled' };
      if (answer === 'wrong code') landing.searchParams.set('code', 'not-issued');
      else landing.searchParams.set('state', 'another-sign-in');
      return { outcome: 'pasted', text: landing.href };
    });
    const accounts = await client.use(Accounts);
    expect(await accounts.login('acme-web', BACKGROUND_CONTEXT)).toEqual({ outcome: 'cancelled' });
    answer = 'wrong code';
    expect(await remoteErrorOf(accounts.login('acme-web', BACKGROUND_CONTEXT))).toMatchObject({
      code: 'unavailable',
      message: 'acme-web refused the sign-in: The code or its verifier is wrong',
    });
    answer = 'other state';
    expect(await remoteErrorOf(accounts.login('acme-web', BACKGROUND_CONTEXT))).toMatchObject({
      code: 'invalid_argument',
      message: 'That address is from another sign-in: run /login again',
    });
    expect(await host.credentials().get('acme-web')).toBeUndefined();
  });
});
