import { z } from 'zod';
import type { Context } from '@pi/context';
import { defineRemoteService, type RemoteState } from '@pi/remote';
import { providerIdSchema } from './provider-id';

export interface AccountSummary {
  provider: string;
  /** Whether a key is stored for the provider (not whether the provider accepts it). */
  configured: boolean;
}

export interface AccountsState {
  providers: AccountSummary[];
}

/**
 * The narrow remote façade over the credential store. Presentations see provider ids and booleans; no member
 * returns a key, and the state never holds one. `setKey` is the one way in: the key crosses once, as an
 * argument, from the presentation that collected it.
 */
export interface AccountsService {
  readonly state: RemoteState<AccountsState>;
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

export const Accounts = defineRemoteService<AccountsService>('accounts', {
  methods: {
    setKey: { args: [providerIdSchema, apiKeySchema], result: z.void() },
    remove: { args: [providerIdSchema], result: z.void() },
  },
  state: { state: accountsStateSchema },
  events: {},
});
