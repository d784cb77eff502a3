import { isProviderId, type AccountsState, type CredentialStore } from '@pi/accounts';
import type { Context } from '@pi/context';
import type { MutableRemoteState } from '@pi/remote';

export interface AccountsProjection {
  /** The providers the host's registry currently offers (each is listed, configured or not). */
  setKnownProviders(ids: Iterable<string>, context: Context): Promise<void>;
  /** Re-reads which providers have a key and publishes the summary. */
  publish(context: Context): Promise<void>;
}

/**
 * Projects the credential store into client-safe state: every provider the registry knows plus every provider
 * with a stored key, each with a `configured` boolean. Only ids ever reach the state, never a key. The store
 * serializes its operations, so the newest publish reads the newest file; an older one publishes nothing (it
 * could overwrite newer state) and settles when the newest has published.
 */
export function accountsProjection(
  store: CredentialStore,
  state: MutableRemoteState<AccountsState>,
): AccountsProjection {
  let known: string[] = [];
  let sequence = 0;
  let newest: Promise<void> = Promise.resolve();

  const publish = (context: Context): Promise<void> => {
    const mine = ++sequence;
    const run = (async () => {
      const stored = new Set(await store.list());
      // A newer publish read the store later, so its state includes this one's write: settle when it has
      // published, or a caller's `setKey` would resolve before its replica could show the key.
      if (mine !== sequence) return newest;
      const ids = [...new Set([...known, ...stored])].sort();
      state.set({ providers: ids.map((provider) => ({ provider, configured: stored.has(provider) })) }, context);
    })();
    newest = run;
    return run;
  };

  return {
    setKnownProviders(ids, context) {
      known = [...ids].filter(isProviderId);
      return publish(context);
    },
    publish,
  };
}
