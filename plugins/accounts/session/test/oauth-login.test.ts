import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OAuthRequest, OAuthResponse } from '@pi/accounts';
import type { ProviderLogin } from '@pi/agent-contract';
import { BACKGROUND_CONTEXT, type Context } from '@pi/context';
import { remoteErrorOf, startAuthorizationServer, type AuthorizationServer } from '@pi/test-support';
import { codeFromPaste, loginWithOAuth, type OAuthIo } from '../src/oauth-login';

let server: AuthorizationServer;
beforeEach(async () => void (server = await startAuthorizationServer()));
afterEach(() => server.close());

/** Real HTTP; waits are recorded (in ms) and end at once, so a test never sleeps through an interval. */
function testIo(): OAuthIo & { readonly waits: number[] } {
  const waits: number[] = [];
  return { fetch, sleep: async (ms) => void waits.push(ms), waits };
}

const oauth2 = (): ProviderLogin => ({
  flow: 'authorization_code',
  dialect: 'oauth2',
  authorizeUrl: `${server.origin}/authorize`,
  tokenUrl: `${server.origin}/token`,
  redirectUri: 'http://localhost:3000/pi-login',
  clientId: 'pi-test-client',
  scope: 'inference',
});

const device = (): ProviderLogin => ({
  flow: 'device_code',
  deviceAuthorizationUrl: `${server.origin}/device`,
  tokenUrl: `${server.origin}/token`,
  clientId: 'pi-test-client',
});

/** A person who signs in in the browser and pastes what `paste` makes of the address they landed on. */
function personPasting(paste: (landing: string) => string, seen: OAuthRequest[] = []) {
  return async (request: OAuthRequest): Promise<OAuthResponse> => {
    seen.push(request);
    return { outcome: 'pasted', text: paste(server.signIn(request.url)) };
  };
}

describe('the authorization code flow with PKCE', () => {
  it('sends the person to an address with the S256 challenge, and exchanges the pasted address for the token', async () => {
    const seen: OAuthRequest[] = [];
    const key = await loginWithOAuth(
      'acme',
      oauth2(),
      personPasting((landing) => landing, seen),
      BACKGROUND_CONTEXT,
      testIo(),
    );
    expect(key).toBe(server.token);
    const address = new URL(seen[0]?.url ?? '');
    expect(Object.fromEntries(address.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: 'pi-test-client',
      redirect_uri: 'http://localhost:3000/pi-login',
      scope: 'inference',
      code_challenge_method: 'S256',
      state: expect.stringMatching(/^[\w-]{16,}$/),
      code_challenge: expect.stringMatching(/^[\w-]{43}$/),
    });
    const exchange = server.requests.find((request) => request.path === '/token');
    expect(exchange?.body).toMatchObject({
      grant_type: 'authorization_code',
      client_id: 'pi-test-client',
      redirect_uri: 'http://localhost:3000/pi-login',
      code_verifier: expect.stringMatching(/^[\w-]{43}$/),
    });
  });

  it('takes the bare code or code#state as well as the address', async () => {
    const bare = (landing: string) => new URL(landing).searchParams.get('code') ?? '';
    const hashed = (landing: string) => `${bare(landing)}#${new URL(landing).searchParams.get('state')}`;
    for (const paste of [bare, hashed]) {
      await expect(loginWithOAuth('acme', oauth2(), personPasting(paste), BACKGROUND_CONTEXT, testIo())).resolves.toBe(
        server.token,
      );
    }
  });

  it("OpenRouter's dialect: the callback carries the state, and the exchange is JSON answered with a key", async () => {
    const login: ProviderLogin = {
      flow: 'authorization_code',
      dialect: 'openrouter',
      authorizeUrl: `${server.origin}/auth`,
      tokenUrl: `${server.origin}/keys`,
      redirectUri: 'http://localhost:3000/pi-login',
    };
    const seen: OAuthRequest[] = [];
    const key = await loginWithOAuth(
      'openrouter',
      login,
      personPasting((landing) => landing, seen),
      BACKGROUND_CONTEXT,
      testIo(),
    );
    expect(key).toBe(server.token);
    const address = new URL(seen[0]?.url ?? '');
    expect(address.searchParams.get('client_id')).toBeNull();
    expect(new URL(address.searchParams.get('callback_url') ?? '').searchParams.get('state')).toMatch(/^[\w-]{16,}$/);
    expect(server.requests.find((request) => request.path === '/keys')?.body).toMatchObject({
      code_challenge_method: 'S256',
      code_verifier: expect.any(String),
    });
  });

  it('a cancelled sign-in stores nothing and asks the server nothing', async () => {
    const key = await loginWithOAuth(
      'acme',
      oauth2(),
      async () => ({ outcome: 'cancelled' }),
      BACKGROUND_CONTEXT,
      testIo(),
    );
    expect(key).toBeUndefined();
    expect(server.requests).toEqual([]);
  });

  it("a refused exchange is the provider's words, and no message quotes the code or the verifier", async () => {
    let pastedCode = '';
    const wrongCode = async (request: OAuthRequest): Promise<OAuthResponse> => {
      server.signIn(request.url);
      pastedCode = 'code-not-issued';
      return { outcome: 'pasted', text: pastedCode };
    };
    const error = await remoteErrorOf(loginWithOAuth('acme', oauth2(), wrongCode, BACKGROUND_CONTEXT, testIo()));
    expect(error).toMatchObject({
      code: 'unavailable',
      message: 'acme refused the sign-in: The code or its verifier is wrong',
    });
    const verifier = server.requests.find((request) => request.path === '/token')?.body['code_verifier'] ?? '';
    expect(error.message).not.toContain(pastedCode);
    expect(error.message).not.toContain(verifier);
  });

  it('a token server that answers 200 with something else than JSON is unavailable, and stores nothing', async () => {
    const html = createServer((_request, response) => response.end('<html>sign in</html>'));
    await new Promise<void>((resolve) => html.listen(0, '127.0.0.1', resolve));
    try {
      const login = {
        ...oauth2(),
        tokenUrl: `http://127.0.0.1:${(html.address() as AddressInfo).port}/token`,
      } as ProviderLogin;
      const error = await remoteErrorOf(
        loginWithOAuth(
          'acme',
          login,
          personPasting((landing) => landing),
          BACKGROUND_CONTEXT,
          testIo(),
        ),
      );
      expect(error).toMatchObject({ code: 'unavailable', message: "acme's sign-in server answered 200 without JSON" });
    } finally {
      await new Promise((resolve) => html.close(resolve));
    }
  });

  it('an unreachable token server is unavailable, naming the provider', async () => {
    const login = { ...oauth2(), tokenUrl: 'http://127.0.0.1:9/token' } as ProviderLogin;
    const error = await remoteErrorOf(
      loginWithOAuth(
        'acme',
        login,
        personPasting((landing) => landing),
        BACKGROUND_CONTEXT,
        testIo(),
      ),
    );
    expect(error.code).toBe('unavailable');
    expect(error.message).toMatch(/^acme's sign-in server could not be reached/);
  });
});

describe('what a person may paste', () => {
  const state = 'state-1';
  it.each([
    ['the landing address', 'http://localhost:3000/pi-login?code=abc&state=state-1', 'abc'],
    ['an address without state', 'http://localhost:3000/pi-login?code=abc', 'abc'],
    ['code#state', ' abc#state-1 \n', 'abc'],
    ['the bare code', 'abc-DEF_1.2~3', 'abc-DEF_1.2~3'],
  ])('%s gives the code', (_name, pasted, code) => {
    expect(codeFromPaste(pasted, state)).toBe(code);
  });

  it.each([
    ["another sign-in's address", 'http://localhost:3000/pi-login?code=abc&state=other', /another sign-in/],
    ["another sign-in's code#state", 'abc#other', /another sign-in/],
    ['an address without a code', 'http://localhost:3000/pi-login?state=state-1', /holds no code/],
    [
      'the provider refusing',
      'http://localhost:3000/cb?error=access_denied&error_description=User%20said%20no',
      /refused: User said no/,
    ],
    ['prose', 'I could not find it', /Paste the address/],
  ])('%s is refused with a reason', (_name, pasted, problem) => {
    const result = codeFromPaste(pasted, state);
    expect(typeof result).toBe('object');
    expect((result as { problem: string }).problem).toMatch(problem);
  });
});

describe('the device code flow', () => {
  /** A person who is shown the code and does nothing more; the request's context is kept to see it closed. */
  function watchingPerson(shown: Array<{ request: OAuthRequest; context: Context }>) {
    return (request: OAuthRequest, context: Context) =>
      new Promise<OAuthResponse>((resolve) => {
        shown.push({ request, context });
        context.abortSignal?.addEventListener('abort', () => resolve({ outcome: 'cancelled' }));
      });
  }

  it('shows the address and code, polls while pending, slows down when told, and closes the request with the token', async () => {
    server.deviceTerms({ interval: 2, expiresIn: 900 });
    server.answerDevicePolls(['authorization_pending', 'slow_down', 'authorization_pending', 'token']);
    const shown: Array<{ request: OAuthRequest; context: Context }> = [];
    const io = testIo();
    const key = await loginWithOAuth('acme', device(), watchingPerson(shown), BACKGROUND_CONTEXT, io);
    expect(key).toBe(server.token);
    expect(shown.map(({ request }) => request)).toEqual([
      {
        provider: 'acme',
        flow: 'device_code',
        url: `${server.origin}/activate?user_code=WDJB-MJHT`,
        userCode: 'WDJB-MJHT',
        expiresInSeconds: 900,
      },
    ]);
    expect(shown[0]?.context.abortSignal?.aborted).toBe(true);
    expect(io.waits).toEqual([2000, 7000, 7000]);
    const polls = server.requests.filter((request) => request.path === '/token');
    expect(polls).toHaveLength(4);
    expect(polls[0]?.body).toMatchObject({
      grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
      client_id: 'pi-test-client',
    });
  });

  it('the person cancelling stops the polling and stores nothing', async () => {
    server.answerDevicePolls(['authorization_pending']);
    let polled = 0;
    const io: OAuthIo = {
      fetch: (input, init) => {
        if (String(input).endsWith('/token')) polled += 1;
        return fetch(input, init);
      },
      sleep: () => new Promise((resolve) => setTimeout(resolve, 5)),
    };
    const cancelling = async (): Promise<OAuthResponse> => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      return { outcome: 'cancelled' };
    };
    await expect(loginWithOAuth('acme', device(), cancelling, BACKGROUND_CONTEXT, io)).resolves.toBeUndefined();
    const after = polled;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(polled).toBe(after);
  });

  it('"approved" checks at once instead of waiting out the interval', async () => {
    server.deviceTerms({ interval: 600 });
    server.answerDevicePolls(['authorization_pending', 'token']);
    const io: OAuthIo = {
      fetch,
      sleep: (_ms, signal) => new Promise((resolve) => signal.addEventListener('abort', () => resolve())),
    };
    const approving = async (): Promise<OAuthResponse> => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { outcome: 'approved' };
    };
    await expect(loginWithOAuth('acme', device(), approving, BACKGROUND_CONTEXT, io)).resolves.toBe(server.token);
  });

  it.each([
    ['access_denied', 'permission_denied', /acme refused the sign-in: access_denied/],
    ['expired_token', 'deadline_exceeded', /The sign-in code for acme expired/],
  ] as const)('%s ends the login with %s', async (answer, code, message) => {
    server.answerDevicePolls(['authorization_pending', answer]);
    const error = await remoteErrorOf(
      loginWithOAuth('acme', device(), watchingPerson([]), BACKGROUND_CONTEXT, testIo()),
    );
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
  });

  it('a presentation that cannot show the code ends the login as unavailable', async () => {
    server.answerDevicePolls(['authorization_pending']);
    const nobody = async (): Promise<OAuthResponse> => {
      throw new Error('no handler');
    };
    const error = await remoteErrorOf(loginWithOAuth('acme', device(), nobody, BACKGROUND_CONTEXT, testIo()));
    expect(error).toMatchObject({ code: 'unavailable', message: 'No one could be shown the sign-in code for acme' });
  });
});
