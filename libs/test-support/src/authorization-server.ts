import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the server received, its body parsed (form or JSON). */
export interface ReceivedRequest {
  readonly path: string;
  readonly body: Record<string, string>;
}

/** What the device token endpoint answers next, once a code is issued: RFC 8628's errors, or the token. */
export type DeviceAnswer = 'authorization_pending' | 'slow_down' | 'access_denied' | 'expired_token' | 'token';

/**
 * A local OAuth 2.0 authorization server written from RFC 6749, 7636 and 8628 (and OpenRouter's key exchange): what
 * the login flows are tested against. `signIn` plays the person's browser: it reads the authorization address as
 * the server would and answers the address the browser would land on.
 */
export interface AuthorizationServer {
  readonly origin: string;
  readonly requests: readonly ReceivedRequest[];
  /** The access token (or OpenRouter key) a successful exchange answers. */
  readonly token: string;
  /** The person signs in at `authorizationUrl`: the address the browser lands on, code and state included. */
  signIn(authorizationUrl: string): string;
  /** The device token endpoint's answers, in order; the last one repeats. */
  answerDevicePolls(answers: readonly DeviceAnswer[]): void;
  /** How the device authorization endpoint answers (interval and lifetime in seconds). */
  deviceTerms(terms: { interval?: number; expiresIn?: number }): void;
  close(): Promise<void>;
}

export async function startAuthorizationServer(): Promise<AuthorizationServer> {
  const token = `at-${randomBytes(12).toString('hex')}`;
  const requests: ReceivedRequest[] = [];
  /** Issued codes and the PKCE challenge each was issued for. */
  const codes = new Map<string, { challenge: string; redirectUri: string | undefined }>();
  let deviceAnswers: readonly DeviceAnswer[] = ['token'];
  let polls = 0;
  let terms = { interval: 0, expiresIn: 600 };
  const deviceCode = `dc-${randomBytes(8).toString('hex')}`;

  const exchange = (code: string | undefined, verifier: string | undefined) => {
    const issued = code === undefined ? undefined : codes.get(code);
    if (issued === undefined || verifier === undefined) return false;
    codes.delete(code ?? '');
    return createHash('sha256').update(verifier).digest('base64url') === issued.challenge;
  };

  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const body = await bodyOf(request);
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    requests.push({ path, body });
    const send = (status: number, value: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(value));
    };
    switch (path) {
      case '/token':
        if (body['grant_type'] === 'authorization_code') {
          return exchange(body['code'], body['code_verifier'])
            ? send(200, { access_token: token, token_type: 'Bearer', expires_in: 3600 })
            : send(400, { error: 'invalid_grant', error_description: 'The code or its verifier is wrong' });
        }
        if (
          body['grant_type'] === 'urn:ietf:params:oauth:grant-type:device_code' &&
          body['device_code'] === deviceCode
        ) {
          const answer = deviceAnswers[Math.min(polls, deviceAnswers.length - 1)] ?? 'token';
          polls += 1;
          return answer === 'token'
            ? send(200, { access_token: token, token_type: 'Bearer' })
            : send(400, { error: answer });
        }
        return send(400, { error: 'unsupported_grant_type' });
      case '/keys':
        return exchange(body['code'], body['code_verifier'])
          ? send(200, { key: token, user_id: 'user-1' })
          : send(403, { error: { code: 403, message: 'Invalid code or code_verifier' } });
      case '/device':
        return send(200, {
          device_code: deviceCode,
          user_code: 'WDJB-MJHT',
          verification_uri: `${origin}/activate`,
          verification_uri_complete: `${origin}/activate?user_code=WDJB-MJHT`,
          expires_in: terms.expiresIn,
          interval: terms.interval,
        });
      default:
        return send(404, { error: 'not_found' });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    requests,
    token,
    signIn(authorizationUrl) {
      const url = new URL(authorizationUrl);
      const challenge = url.searchParams.get('code_challenge') ?? '';
      if (url.searchParams.get('code_challenge_method') !== 'S256') throw new Error('no S256 challenge');
      const code = `code-${randomBytes(8).toString('hex')}`;
      // OpenRouter's dialect sends the person back to `callback_url`; RFC 6749's to `redirect_uri` with the state.
      const callback = url.searchParams.get('callback_url');
      const redirectUri = url.searchParams.get('redirect_uri') ?? undefined;
      codes.set(code, { challenge, redirectUri });
      const landing = new URL(callback ?? redirectUri ?? '');
      landing.searchParams.set('code', code);
      const state = url.searchParams.get('state');
      if (state !== null) landing.searchParams.set('state', state);
      return landing.href;
    },
    answerDevicePolls(answers) {
      deviceAnswers = answers;
      polls = 0;
    },
    deviceTerms(given) {
      terms = { ...terms, ...given };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function bodyOf(request: IncomingMessage): Promise<Record<string, string>> {
  let text = '';
  for await (const chunk of request) text += String(chunk);
  if ((request.headers['content-type'] ?? '').includes('application/json')) {
    const parsed = JSON.parse(text || '{}') as Record<string, unknown>;
    return Object.fromEntries(Object.entries(parsed).map(([key, value]) => [key, String(value)]));
  }
  return Object.fromEntries(new URLSearchParams(text));
}
