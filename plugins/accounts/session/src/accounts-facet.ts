import { join } from 'node:path';
import { Accounts, Credentials, KeyEntryInteraction, OAuthInteraction, type AccountsState } from '@pi/accounts';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { CLIENT_ID } from '@pi/remote';
import type { CodingAgentSessionPluginContext } from '@pi/plugin-api';
import { toAccountsError } from './accounts-errors';
import { accountsProjection } from './accounts-projection';
import { createFileCredentialStore } from './file-credential-store';
import { loginWithOAuth, type AskPerson, type OAuthIo } from './oauth-login';

export const CREDENTIALS_FILE_NAME = 'credentials.json';

/** How long a person has to paste a key before the login gives up. */
export const KEY_ENTRY_TIMEOUT_MS = 10 * 60_000;
/** How long an OAuth sign-in may wait on the person: beyond a device code's usual 15 minutes, which end it first. */
export const OAUTH_TIMEOUT_MS = 30 * 60_000;

/**
 * The session facet of @pi/accounts: provides the local Credentials store (for provider plugins) and the
 * narrow remote Accounts façade (for presentations). The façade's state follows the providers registry and
 * every change to the store, including changes other local plugins make.
 */
export function accountsSessionFacet(context: CodingAgentSessionPluginContext): void {
  const oauthIo: OAuthIo = { fetch: (input, init) => fetch(input, init), sleep: abortableSleep };
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
    async login(provider, callContext) {
      // Only the presentation that asked sees the prompt: another one attached to the session never does.
      const clientId = callContext.value(CLIENT_ID);
      const toCaller = (timeoutMs: number) => ({ timeoutMs, ...(clientId === undefined ? {} : { clientId }) });
      const oauth = context.providers.current().get(provider)?.login;
      let key: string | undefined;
      if (oauth === undefined) {
        const answer = await context.interactions.request(
          KeyEntryInteraction,
          { provider },
          callContext,
          toCaller(KEY_ENTRY_TIMEOUT_MS),
        );
        key = answer.outcome === 'entered' ? answer.key : undefined;
      } else {
        const ask: AskPerson = (request, askContext) =>
          context.interactions.request(OAuthInteraction, request, askContext, toCaller(OAUTH_TIMEOUT_MS));
        key = await loginWithOAuth(provider, oauth, ask, callContext, oauthIo);
      }
      if (key === undefined) return { outcome: 'cancelled' };
      const stored = key;
      await write(() => store.set(provider, stored));
      await quietly(projection.publish(callContext));
      return { outcome: 'stored' };
    },
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

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
