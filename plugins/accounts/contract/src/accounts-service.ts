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

/**
 * An API key as accepted over the wire: printable ASCII without spaces (it becomes an HTTP header), at most
 * 4 KiB. Schema messages never quote the rejected value.
 */
export const apiKeySchema = z
  .string()
  .min(1, 'The key is empty')
  .max(4096, 'The key is longer than 4096 characters')
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
