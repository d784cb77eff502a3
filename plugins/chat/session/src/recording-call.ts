import { isSessionFileUnwritable } from '@pi/agent';
import { SESSION_FILE_UNWRITABLE } from '@pi/chat';
import { RemoteError } from '@pi/remote';

/**
 * Runs a call that records something in the session file: the file's fault reaches the client as its stable
 * code and message (naming the file and the cause), not as an internal error.
 */
export async function recordingCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isSessionFileUnwritable(error)) throw new RemoteError(SESSION_FILE_UNWRITABLE, error.message);
    throw error;
  }
}
