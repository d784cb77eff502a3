import { RemoteError } from '@pi/plugin-api';

/** Any failure of a call to the session as one line for a notice: the message, and the code when there is one. */
export function failureText(failure: unknown): string {
  if (failure instanceof RemoteError) return `${failure.message} (${failure.code})`;
  return failure instanceof Error ? failure.message : String(failure);
}
