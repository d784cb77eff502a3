import { z } from 'zod';
import type { Context } from '@pi/context';
import { defineInteraction, defineRemoteService, type RemoteState } from '@pi/remote';
import { providerIdSchema } from './provider-id';

export interface AccountSummary {
  provider: string;
  /** Whether a key is stored for the provider (not whether the provider accepts it). */
  configured: boolean;
}

export interface AccountsState {
  providers: AccountSummary[];
}

/** What `login` did: the key was entered and stored, or the person cancelled. */
export type LoginOutcome = { outcome: 'stored' | 'cancelled' };

/**
 * The narrow remote façade over the credential store. Presentations see provider ids and booleans; no member
 * returns a key, and the state never holds one. A key comes in through `login` — the session asks the calling
 * presentation for it with the sensitive KeyEntryInteraction, so it crosses once, in that answer — or, for a
 * tool that already holds one, as `setKey`'s argument.
 */
export interface AccountsService {
  readonly state: RemoteState<AccountsState>;
  /**
   * Signs the calling client in to the provider and stores the key: through the provider's OAuth flow when it has
   * one (OAuthInteraction), else by asking for the key (KeyEntryInteraction).
   */
  login(provider: string, context: Context): Promise<LoginOutcome>;
  setKey(provider: string, key: string, context: Context): Promise<void>;
  /** Forgets a provider's key; removing a provider without one is a no-op (so a replay is harmless). */
  remove(provider: string, context: Context): Promise<void>;
}

/** The longest API key accepted: real keys are well under 1 KiB; headers of a few KiB are what servers take. */
export const MAX_API_KEY_LENGTH = 4096;

/**
 * An API key as accepted over the wire: printable ASCII without spaces (it becomes an HTTP header), at most
 * MAX_API_KEY_LENGTH characters. Schema messages never quote the rejected value.
 */
export const apiKeySchema = z
  .string()
  .min(1, 'The key is empty')
  .max(MAX_API_KEY_LENGTH, `The key is longer than ${MAX_API_KEY_LENGTH} characters`)
  .regex(/^[\x21-\x7e]+$/, 'The key must be printable ASCII without spaces');

export const accountsStateSchema = z.object({
  providers: z.array(z.object({ provider: providerIdSchema, configured: z.boolean() })),
});

/** What the session asks a presentation when someone logs in: the provider whose key to type. */
export type KeyEntryRequest = { provider: string };
export type KeyEntryResponse = { outcome: 'entered'; key: string } | { outcome: 'cancelled' };

/**
 * The spec's sensitive interaction: the answer is an API key. It never enters replicated state, the session file,
 * logs, spans or errors (a malformed answer is refused without quoting it); presentations show a masked field.
 */
export const KeyEntryInteraction = defineInteraction<KeyEntryRequest, KeyEntryResponse>('key-entry', {
  request: z.object({ provider: providerIdSchema }),
  response: z.discriminatedUnion('outcome', [
    z.object({ outcome: z.literal('entered'), key: apiKeySchema }),
    z.object({ outcome: z.literal('cancelled') }),
  ]),
  sensitive: true,
});

/** The longest pasted answer accepted: an authorization code, or the whole address the browser landed on. */
export const MAX_OAUTH_PASTE_LENGTH = 8192;

/**
 * What the session shows a person signing in with OAuth: an address to open in a browser. For the authorization
 * code flow they then paste back the address they landed on (or its code); for the device flow they type
 * `userCode` on that page while the session waits, and the session closes the request when the provider answers.
 */
export type OAuthRequest =
  | { provider: string; flow: 'authorization_code'; url: string }
  | { provider: string; flow: 'device_code'; url: string; userCode: string; expiresInSeconds: number };

/** `pasted`: the authorization code flow's answer; `approved`: the person says they are done (the session checks now). */
export type OAuthResponse = { outcome: 'pasted'; text: string } | { outcome: 'approved' } | { outcome: 'cancelled' };

const oauthUrl = z.url({ protocol: /^https?$/ }).max(MAX_OAUTH_PASTE_LENGTH);

/**
 * The spec's OAuth interaction. Sensitive: a pasted code, with the session's verifier, is a credential, so the
 * answer is treated like a typed key (never recorded, logged or quoted).
 */
export const OAuthInteraction = defineInteraction<OAuthRequest, OAuthResponse>('oauth', {
  request: z.discriminatedUnion('flow', [
    z.object({ provider: providerIdSchema, flow: z.literal('authorization_code'), url: oauthUrl }),
    z.object({
      provider: providerIdSchema,
      flow: z.literal('device_code'),
      url: oauthUrl,
      userCode: z.string().min(1).max(64),
      expiresInSeconds: z.number().int().positive(),
    }),
  ]),
  response: z.discriminatedUnion('outcome', [
    z.object({ outcome: z.literal('pasted'), text: z.string().min(1).max(MAX_OAUTH_PASTE_LENGTH) }),
    z.object({ outcome: z.literal('approved') }),
    z.object({ outcome: z.literal('cancelled') }),
  ]),
  sensitive: true,
});

export const Accounts = defineRemoteService<AccountsService>('accounts', {
  methods: {
    login: { args: [providerIdSchema], result: z.object({ outcome: z.enum(['stored', 'cancelled']) }) },
    setKey: { args: [providerIdSchema, apiKeySchema], result: z.void() },
    remove: { args: [providerIdSchema], result: z.void() },
  },
  state: { state: accountsStateSchema },
  events: {},
});
