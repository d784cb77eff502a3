import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { err, ok } from 'neverthrow';
import { sessionCallerIdentity, userCallerIdentity, type SessionRecord } from '@pi/plugin-api';
import type { Authenticate } from '@pi/transport-trpc';
import { sessionCredentials } from './session-credentials';
import { gatewaySessionId, sessionGateway, type ConnectedSession, type LocalSession } from './session-gateway';

const credentials = sessionCredentials(randomBytes(32));
const USER_TOKEN = 'the-user-token';

const authenticate: Authenticate = (params) => {
  if (params?.['token'] === USER_TOKEN) return ok(userCallerIdentity('local-user'));
  if (params?.['token'] === 'a-session-credential')
    return ok(sessionCallerIdentity({ sessionId: 's-other', workspaceId: 'w' }));
  return err('Wrong token');
};

function record(sessionId: string, status: SessionRecord['status']): SessionRecord {
  return {
    sessionId,
    status,
    title: sessionId,
    provisionalTitle: false,
    workspaceId: 'w-1',
    ownerId: 'local-user',
    cwd: '/p',
    createdAt: 'then',
    updatedAt: 'then',
  };
}

function gateway(
  options: {
    connected?: Record<string, ConnectedSession>;
    local?: Record<string, LocalSession>;
    records?: SessionRecord[];
  } = {},
) {
  const records = new Map((options.records ?? []).map((r) => [r.sessionId, r]));
  return sessionGateway({
    authenticate,
    repo: { get: async (sessionId) => records.get(sessionId) },
    credentials,
    connected: (sessionId) => options.connected?.[sessionId],
    localSession: async (sessionId) => options.local?.[sessionId],
    ca: 'the CA',
  });
}

describe('the coordinator as a gateway to its sessions', () => {
  it('names the session of a /sessions/<id> path, and none for the host’s own path', () => {
    expect(gatewaySessionId({ url: '/sessions/s-1?connectionParams=1' })).toBe('s-1');
    expect(gatewaySessionId({ url: '/sessions/s-1/' })).toBe('s-1');
    expect(gatewaySessionId({ url: '/?connectionParams=1' })).toBeUndefined();
    expect(gatewaySessionId({ url: '/sessions/' })).toBeUndefined();
    expect(gatewaySessionId({ url: '/sessions/a/b' })).toBeUndefined();
    // A broken escape is no throw (it would end the coordinator from ws's listener): the id as written, refused later.
    expect(gatewaySessionId({ url: '/sessions/%E0' })).toBe('%E0');
  });

  it('relays the user to a session elsewhere at the URL it reported, presenting its credential and trusting the CA', async () => {
    const route = gateway({
      records: [record('s-1', 'idle')],
      connected: { 's-1': { url: 'wss://build-7:7444/' } },
    })('s-1');
    const target = (await route({ token: USER_TOKEN }))._unsafeUnwrap();
    expect(target.address).toEqual({ url: 'wss://build-7:7444/' });
    expect(target.ca).toBe('the CA');
    expect(credentials.verify(target.connectionParams['token'] ?? '')).toEqual({
      sessionId: 's-1',
      workspaceId: 'w-1',
    });
    expect(target.unreachable('ECONNREFUSED')).toEqual({
      code: 'session_unreachable',
      message: 'The coordinator cannot reach session s-1 at wss://build-7:7444/: ECONNREFUSED',
    });
  });

  it('relays the user to a session of this machine by the socket and token of its connection file', async () => {
    const route = gateway({
      records: [record('s-2', 'active')],
      local: { 's-2': { socketPath: '/run/pi/s-2.sock', token: 'its-token' } },
    })('s-2');
    const target = (await route({ token: USER_TOKEN }))._unsafeUnwrap();
    expect(target.address).toEqual({ socketPath: '/run/pi/s-2.sock' });
    expect(target.connectionParams).toEqual({ token: 'its-token' });
  });

  it('relays the user to a session connected to another replica at the address the shared records keep', async () => {
    const route = sessionGateway({
      authenticate,
      repo: { get: async () => record('s-3', 'idle') },
      credentials,
      connected: () => undefined,
      localSession: async () => undefined,
      storedAddress: async (sessionId) => (sessionId === 's-3' ? 'wss://build-9:7444/' : undefined),
    })('s-3');
    const target = (await route({ token: USER_TOKEN }))._unsafeUnwrap();
    expect(target.address).toEqual({ url: 'wss://build-9:7444/' });
    expect(credentials.verify(target.connectionParams['token'] ?? '')?.sessionId).toBe('s-3');
  });

  it('refuses a wrong token, and a session’s credential, as not authorized', async () => {
    const route = gateway({ records: [record('s-1', 'idle')], local: { 's-1': { socketPath: '/s', token: 't' } } })(
      's-1',
    );
    expect((await route({ token: 'guessed' }))._unsafeUnwrapErr().code).toBe('not_authorized');
    expect((await route(null))._unsafeUnwrapErr().code).toBe('not_authorized');
    expect((await route({ token: 'a-session-credential' }))._unsafeUnwrapErr()).toEqual({
      code: 'not_authorized',
      message: 'Only the user attaches to a session through the coordinator',
    });
  });

  it('says which session is unknown, not running, or running elsewhere without a listener', async () => {
    const route = gateway({
      records: [record('s-closed', 'closed'), record('s-there', 'idle'), record('s-deaf', 'idle')],
      connected: { 's-deaf': { url: undefined } },
    });
    expect((await route('s-none')({ token: USER_TOKEN }))._unsafeUnwrapErr()).toEqual({
      code: 'unknown_session',
      message: 'The coordinator has no session s-none',
    });
    expect((await route('../etc')({ token: USER_TOKEN }))._unsafeUnwrapErr().code).toBe('invalid_argument');
    expect((await route('s-closed')({ token: USER_TOKEN }))._unsafeUnwrapErr()).toEqual({
      code: 'session_not_running',
      message: "Session s-closed is not running (a TUI's /sessions resumes it)",
    });
    expect((await route('s-there')({ token: USER_TOKEN }))._unsafeUnwrapErr()).toEqual({
      code: 'session_not_running',
      message: 'Session s-there is idle through another replica, and serves no presentations on the network',
    });
    expect((await route('s-deaf')({ token: USER_TOKEN }))._unsafeUnwrapErr()).toEqual({
      code: 'session_unreachable',
      message: 'Session s-deaf runs on another host and serves no presentations on the network (pi-session --listen)',
    });
  });
});
