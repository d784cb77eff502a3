import { createHash, randomBytes } from 'node:crypto';
import { apiKeySchema, type OAuthRequest, type OAuthResponse } from '@pi/accounts';
import type { AuthorizationCodeLogin, DeviceCodeLogin, ProviderLogin } from '@pi/agent-contract';
import { withAbortSignal, type Context } from '@pi/context';
import { RemoteError } from '@pi/remote';
import { z } from 'zod';

/** What a login needs from the world; tests give a clock of their own. */
export interface OAuthIo {
  readonly fetch: typeof fetch;
  /** Resolves after `ms`, or at once when `signal` aborts. */
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** Shows the person the request (through OAuthInteraction) and resolves with their answer. */
export type AskPerson = (request: OAuthRequest, context: Context) => Promise<OAuthResponse>;

/** RFC 8628's default and its `slow_down` step, in seconds. */
const DEVICE_INTERVAL_S = 5;
const SLOW_DOWN_S = 5;

/**
 * Runs a provider's OAuth flow with the person at `ask` and resolves with the credential to store as its key, or
 * undefined when they cancelled. Failures are RemoteErrors whose messages never quote a code, verifier or token.
 */
export function loginWithOAuth(
  provider: string,
  login: ProviderLogin,
  ask: AskPerson,
  context: Context,
  io: OAuthIo,
): Promise<string | undefined> {
  return login.flow === 'authorization_code'
    ? authorizationCode(provider, login, ask, context, io)
    : deviceCode(provider, login, ask, context, io);
}

async function authorizationCode(
  provider: string,
  login: AuthorizationCodeLogin,
  ask: AskPerson,
  context: Context,
  io: OAuthIo,
): Promise<string | undefined> {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const state = randomBytes(16).toString('base64url');
  const url = new URL(login.authorizeUrl);
  const pkce = { code_challenge: challenge, code_challenge_method: 'S256' };
  const query: Record<string, string> =
    login.dialect === 'oauth2'
      ? {
          response_type: 'code',
          client_id: login.clientId ?? '',
          redirect_uri: login.redirectUri,
          state,
          ...(login.scope === undefined ? {} : { scope: login.scope }),
          ...pkce,
        }
      : // OpenRouter passes the callback's own query on, so the state rides in it.
        { callback_url: withQuery(login.redirectUri, { state }), ...pkce };
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);

  const answer = await ask({ provider, flow: 'authorization_code', url: url.href }, context);
  if (answer.outcome !== 'pasted') return undefined;
  const code = codeFromPaste(answer.text, state);
  if (typeof code !== 'string') throw new RemoteError('invalid_argument', code.problem);

  const response =
    login.dialect === 'oauth2'
      ? await post(
          provider,
          login.tokenUrl,
          form({
            grant_type: 'authorization_code',
            code,
            redirect_uri: login.redirectUri,
            client_id: login.clientId ?? '',
            code_verifier: verifier,
          }),
          context,
          io,
        )
      : await post(
          provider,
          login.tokenUrl,
          json({ code, code_verifier: verifier, code_challenge_method: 'S256' }),
          context,
          io,
        );
  if (!response.ok) throw refusal(provider, response.body);
  return credential(provider, login.dialect === 'oauth2' ? response.body['access_token'] : response.body['key']);
}

const deviceAuthorizationSchema = z.object({
  device_code: z.string().min(1),
  user_code: z.string().min(1).max(64),
  verification_uri: z.url({ protocol: /^https?$/ }),
  verification_uri_complete: z.url({ protocol: /^https?$/ }).optional(),
  expires_in: z.number().positive(),
  interval: z.number().min(0).optional(),
});

async function deviceCode(
  provider: string,
  login: DeviceCodeLogin,
  ask: AskPerson,
  context: Context,
  io: OAuthIo,
): Promise<string | undefined> {
  const started = await post(
    provider,
    login.deviceAuthorizationUrl,
    form({ client_id: login.clientId, ...(login.scope === undefined ? {} : { scope: login.scope }) }),
    context,
    io,
  );
  if (!started.ok) throw refusal(provider, started.body);
  const parsed = deviceAuthorizationSchema.safeParse(started.body);
  if (!parsed.success)
    throw new RemoteError('unavailable', `${provider}'s sign-in server answered something else than a device code`);
  const device = parsed.data;

  // The request stays open while the session polls; the session closes it when the provider has answered.
  const shown = new AbortController();
  const stop = new AbortController();
  const cancelled =
    context.abortSignal === undefined ? stop.signal : AbortSignal.any([stop.signal, context.abortSignal]);
  // "Approved" wakes the wait, or skips the next one when it comes while a poll is out.
  let wake: AbortController | undefined;
  let checkSoon = false;
  const checkNow = () => {
    checkSoon = true;
    wake?.abort();
  };
  let person: OAuthResponse['outcome'] | 'gone' | undefined;
  const asked = ask(
    {
      provider,
      flow: 'device_code',
      url: device.verification_uri_complete ?? device.verification_uri,
      userCode: device.user_code,
      expiresInSeconds: Math.ceil(device.expires_in),
    },
    withAbortSignal(shown.signal, context),
  ).then(
    (answer) => {
      person = answer.outcome;
      if (answer.outcome === 'cancelled') stop.abort();
      else checkNow();
    },
    // No presentation can show it (it left, or none answers): nobody can type the code, so stop too.
    () => {
      if (!shown.signal.aborted) {
        person = 'gone';
        stop.abort();
      }
    },
  );
  try {
    let interval = device.interval ?? DEVICE_INTERVAL_S;
    const deadline = Date.now() + device.expires_in * 1000;
    for (;;) {
      if (cancelled.aborted) return person === 'gone' ? gone(provider) : undefined;
      if (Date.now() >= deadline)
        throw new RemoteError('deadline_exceeded', `The sign-in code for ${provider} expired: run /login again`);
      const polled = await post(
        provider,
        login.tokenUrl,
        form({
          grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
          device_code: device.device_code,
          client_id: login.clientId,
        }),
        context,
        io,
      );
      if (polled.ok) return credential(provider, polled.body['access_token']);
      const error = polled.body['error'];
      if (error === 'slow_down') interval += SLOW_DOWN_S;
      else if (error === 'expired_token')
        throw new RemoteError('deadline_exceeded', `The sign-in code for ${provider} expired: run /login again`);
      else if (error !== 'authorization_pending') throw refusal(provider, polled.body);
      if (checkSoon) {
        checkSoon = false;
        continue;
      }
      wake = new AbortController();
      await io.sleep(interval * 1000, AbortSignal.any([wake.signal, cancelled]));
      wake = undefined;
      checkSoon = false;
    }
  } finally {
    shown.abort();
    await asked;
  }
}

function gone(provider: string): never {
  throw new RemoteError('unavailable', `No one could be shown the sign-in code for ${provider}`);
}

/**
 * The code in what the person pasted: the address the browser landed on (its `code`, refused when its `state` is
 * another sign-in's or it carries the provider's `error`), `code#state`, or the bare code.
 */
export function codeFromPaste(pasted: string, state: string): string | { problem: string } {
  const text = pasted.trim();
  if (/^https?:\/\//i.test(text)) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return { problem: 'That address cannot be read: paste it whole, or just the code' };
    }
    const error = url.searchParams.get('error');
    if (error !== null) {
      return { problem: `The provider refused: ${printable(url.searchParams.get('error_description') ?? error)}` };
    }
    const code = url.searchParams.get('code');
    if (code === null || code === '')
      return { problem: 'That address holds no code: paste the one the browser landed on' };
    const returned = url.searchParams.get('state');
    if (returned !== null && returned !== state)
      return { problem: 'That address is from another sign-in: run /login again' };
    return code;
  }
  const [code = '', returned] = text.split('#');
  if (returned !== undefined && returned !== state)
    return { problem: 'That code is from another sign-in: run /login again' };
  if (!/^[\w.~+/=-]{1,4096}$/.test(code))
    return { problem: 'Paste the address the browser landed on, or the code it shows' };
  return code;
}

interface Posted {
  readonly ok: boolean;
  readonly body: Record<string, unknown>;
}

type Body = { readonly type: string; readonly text: string };
const form = (fields: Record<string, string>): Body => ({
  type: 'application/x-www-form-urlencoded',
  text: new URLSearchParams(fields).toString(),
});
const json = (fields: Record<string, string>): Body => ({ type: 'application/json', text: JSON.stringify(fields) });

async function post(provider: string, url: string, request: Body, context: Context, io: OAuthIo): Promise<Posted> {
  let response: Response;
  try {
    response = await io.fetch(url, {
      method: 'POST',
      headers: { 'content-type': request.type, accept: 'application/json' },
      body: request.text,
      ...(context.abortSignal === undefined ? {} : { signal: context.abortSignal }),
    });
  } catch (error) {
    if (context.abortSignal?.aborted) throw new RemoteError('cancelled', 'The sign-in was cancelled');
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
    throw new RemoteError('unavailable', `${provider}'s sign-in server could not be reached (${printable(cause)})`);
  }
  const text = await response.text().catch(() => '');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const body =
    typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  if (response.ok && parsed === undefined) {
    throw new RemoteError('unavailable', `${provider}'s sign-in server answered ${response.status} without JSON`);
  }
  return { ok: response.ok, body: response.ok ? body : { status: response.status, ...body } };
}

/** The provider's own words for a refusal (RFC 6749's `error` and `error_description`), never the request. */
function refusal(provider: string, body: Record<string, unknown>): RemoteError {
  const error = typeof body['error'] === 'string' ? body['error'] : undefined;
  const description = typeof body['error_description'] === 'string' ? body['error_description'] : undefined;
  const said = description ?? error ?? `HTTP ${String(body['status'] ?? 'error')}`;
  const code = error === 'access_denied' ? 'permission_denied' : 'unavailable';
  return new RemoteError(code, `${provider} refused the sign-in: ${printable(said)}`);
}

function credential(provider: string, value: unknown): string {
  const checked = apiKeySchema.safeParse(value);
  if (!checked.success)
    throw new RemoteError('unavailable', `${provider}'s sign-in server answered without a usable key`);
  return checked.data;
}

/** Server text shown to a person: one line, no control characters, at most 200 characters. */
function printable(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  const line = text.replace(/[\x00-\x1f\x7f]+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

function withQuery(address: string, fields: Record<string, string>): string {
  const url = new URL(address);
  for (const [name, value] of Object.entries(fields)) url.searchParams.set(name, value);
  return url.href;
}
