import { RemoteError } from '@pi/remote';
import { SettingsStoreError } from '@pi/settings';

/** A settings-store failure as a presentation sees it: stable code, no path. Anything else is rethrown. */
export function toPreferencesError(cause: unknown): unknown {
  if (!(cause instanceof SettingsStoreError)) return cause;
  switch (cause.code) {
    case 'invalid_key':
    case 'invalid_value':
      return new RemoteError('invalid_argument', cause.message);
    case 'unreadable':
    case 'unwritable':
      return new RemoteError('unavailable', cause.message);
  }
}
