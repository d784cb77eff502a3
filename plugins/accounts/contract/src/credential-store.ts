import { defineLocalService } from '@pi/remote';

/**
 * The full credential store: secrets in, secrets out. It is a local service, so it exists only in the session
 * process; no peer can list, call or even discover it. Presentations see the Accounts façade instead.
 */
export interface CredentialStore {
  /** The stored key of a provider, or undefined when none is stored. */
  get(provider: string): Promise<string | undefined>;
  set(provider: string, credential: string): Promise<void>;
  /** Removes a provider's key; resolves whether one was stored. */
  remove(provider: string): Promise<boolean>;
  /** The providers that have a stored key, sorted. */
  list(): Promise<string[]>;
  /** Called after every change (set or remove) that reached the store; returns the remover. Never given the key. */
  onChange(listener: () => void): () => void;
}

export const Credentials = defineLocalService<CredentialStore>('credentials');

export const CREDENTIAL_STORE_ERROR_CODES = {
  /** The store's file exists but is not a credentials document (its content is never quoted). */
  unreadable: 'unreadable',
  /** The store could not be written (permissions, disk full…). */
  unwritable: 'unwritable',
  invalid_provider: 'invalid_provider',
  invalid_credential: 'invalid_credential',
} as const;

export type CredentialStoreErrorCode = (typeof CREDENTIAL_STORE_ERROR_CODES)[keyof typeof CREDENTIAL_STORE_ERROR_CODES];

/** What a credential store rejects with: a stable code and a message that names no secret and no path. */
export class CredentialStoreError extends Error {
  override readonly name = 'CredentialStoreError';
  constructor(
    readonly code: CredentialStoreErrorCode,
    message: string,
  ) {
    super(message);
  }
}
