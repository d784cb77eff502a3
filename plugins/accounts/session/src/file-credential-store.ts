import { readFile } from 'node:fs/promises';
import { CredentialStoreError, isProviderId, type CredentialStore } from '@pi/accounts';
import {
  emptyDocument,
  parseCredentialsDocument,
  serializeCredentialsDocument,
  type CredentialsDocument,
} from './credentials-document';
import { serialQueue, writeFileAtomic } from '@pi/atomic-file';

export const CREDENTIALS_FILE_MODE = 0o600;
export const CREDENTIALS_DIRECTORY_MODE = 0o700;

/**
 * A credential store backed by one JSON file, read on every operation (so an edit by hand applies at once) and
 * replaced atomically with mode 0600 in a 0700 directory. Operations run one at a time, so concurrent writes
 * never lose each other. An unreadable file is never overwritten: every operation fails until it is fixed.
 */
export function createFileCredentialStore(path: string): CredentialStore {
  const serial = serialQueue();
  const listeners = new Set<() => void>();

  const read = async (): Promise<CredentialsDocument> => {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return emptyDocument();
      throw new CredentialStoreError('unreadable', 'The credentials file cannot be read');
    }
    return parseCredentialsDocument(text);
  };

  const write = async (document: CredentialsDocument): Promise<void> => {
    try {
      await writeFileAtomic(path, serializeCredentialsDocument(document), {
        fileMode: CREDENTIALS_FILE_MODE,
        directoryMode: CREDENTIALS_DIRECTORY_MODE,
        tightenDirectory: true,
      });
    } catch {
      throw new CredentialStoreError('unwritable', 'The credentials file cannot be written');
    }
    for (const listener of [...listeners]) {
      try {
        listener();
      } catch {
        // One listener's failure must not undo a write that already happened, nor starve the others.
      }
    }
  };

  return {
    get: (provider) =>
      serial(async () => {
        if (!isProviderId(provider)) return undefined;
        const { providers } = await read();
        return Object.hasOwn(providers, provider) ? providers[provider]?.apiKey : undefined;
      }),
    set: (provider, credential) =>
      serial(async () => {
        checkProvider(provider);
        if (typeof credential !== 'string' || credential.length === 0)
          throw new CredentialStoreError('invalid_credential', 'A credential is a non-empty string');
        const document = await read();
        await write({ ...document, providers: { ...document.providers, [provider]: { apiKey: credential } } });
      }),
    remove: (provider) =>
      serial(async () => {
        checkProvider(provider);
        const document = await read();
        if (!Object.hasOwn(document.providers, provider)) return false;
        const { [provider]: _removed, ...rest } = document.providers;
        await write({ ...document, providers: rest });
        return true;
      }),
    list: () => serial(async () => Object.keys((await read()).providers).sort()),
    onChange(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

function checkProvider(provider: string): void {
  if (!isProviderId(provider))
    throw new CredentialStoreError('invalid_provider', 'A provider id is lower-case letters, digits, ".", "-" or "_"');
}
