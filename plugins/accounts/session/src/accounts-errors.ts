import { CredentialStoreError } from '@pi/accounts';
import { RemoteError } from '@pi/remote';

/**
 * A credential-store failure as a presentation may see it: a stable code and a message with no path, no file
 * content and no key. Anything unexpected is rethrown, and the transport turns it into a generic `internal`.
 */
export function toAccountsError(cause: unknown): unknown {
  if (!(cause instanceof CredentialStoreError)) return cause;
  switch (cause.code) {
    case 'unreadable':
      return new RemoteError(
        'unavailable',
        'The credential store cannot be read; fix or remove the credentials file in the pi config directory',
      );
    case 'unwritable':
      return new RemoteError('unavailable', 'The credential store cannot be written');
    case 'invalid_provider':
    case 'invalid_credential':
      return new RemoteError('invalid_argument', cause.message);
  }
}
