import { join } from 'node:path';
import { Accounts, Credentials, type AccountsState } from '@pi/accounts';
import { BACKGROUND_CONTEXT } from '@pi/context';
import type { CodingAgentSessionPluginContext } from '@pi/plugin-api';
import { toAccountsError } from './accounts-errors';
import { accountsProjection } from './accounts-projection';
import { createFileCredentialStore } from './file-credential-store';

export const CREDENTIALS_FILE_NAME = 'credentials.json';

/**
 * The session facet of @pi/accounts: provides the local Credentials store (for provider plugins) and the
 * narrow remote Accounts façade (for presentations). The façade's state follows the providers registry and
 * every change to the store, including changes other local plugins make.
 */
export function accountsSessionFacet(context: CodingAgentSessionPluginContext): void {
  const store = createFileCredentialStore(join(context.paths.configDir, CREDENTIALS_FILE_NAME));
  const state = context.remoteState<AccountsState>({ providers: [] });
  const projection = accountsProjection(store, state);
  // Writes through the façade publish under the caller's context; the store's own change signal covers the rest.
  let facadeWrites = 0;
  const quietly = (work: Promise<void>) => work.catch(() => undefined);

  const write = async (operation: () => Promise<unknown>) => {
    facadeWrites += 1;
    try {
      await operation();
    } catch (error) {
      throw toAccountsError(error);
    } finally {
      facadeWrites -= 1;
    }
  };

  context.provide(Credentials, store);
  context.provide(Accounts, {
    state,
    async setKey(provider, key, callContext) {
      callContext.abortSignal?.throwIfAborted();
      await write(() => store.set(provider, key));
      await quietly(projection.publish(callContext));
    },
    async remove(provider, callContext) {
      callContext.abortSignal?.throwIfAborted();
      await write(() => store.remove(provider));
      await quietly(projection.publish(callContext));
    },
  });

  context.own(
    store.onChange(() => {
      if (facadeWrites === 0) void quietly(projection.publish(BACKGROUND_CONTEXT));
    }),
  );
  context.providers.onRebuild(
    (providers) => void quietly(projection.setKnownProviders(providers.keys(), BACKGROUND_CONTEXT)),
  );
  context.onActivate(() =>
    quietly(projection.setKnownProviders(context.providers.current().keys(), BACKGROUND_CONTEXT)),
  );
}
