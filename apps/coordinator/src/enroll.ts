import { readCoordinatorConnection, writeSessionCredentialFile, type CoordinatorFiles } from '@pi/connection-files';
import { SessionEnrollment } from '@pi/coordinator-api';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { createRpcClient, webSocketFactory } from '@pi/transport-trpc';
import { err, ok, type Result } from 'neverthrow';
import type { EnrollOptions } from './cli-options';

/**
 * `pi-coordinator enroll`: asks the running coordinator (over its socket, with the user token of its connection
 * file) to keep a record of a session that runs elsewhere, and writes that session's credential file.
 */
export async function enrollSession(
  files: CoordinatorFiles,
  options: EnrollOptions,
): Promise<Result<{ sessionId: string }, string>> {
  const connection = await readCoordinatorConnection(files.connectionFile);
  if (connection.isErr()) return err('No coordinator runs here: start one first (pi-coordinator start)');
  const client = createRpcClient({
    socketFactory: webSocketFactory({ socketPath: connection.value.socketPath }),
    connectionParams: { token: connection.value.token },
    reconnect: false,
  });
  try {
    const enrollment = await client.use(SessionEnrollment);
    const enrolled = await enrollment.enroll(
      {
        cwd: options.cwd,
        ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }),
        ...(options.title === undefined ? {} : { title: options.title }),
      },
      BACKGROUND_CONTEXT,
    );
    await writeSessionCredentialFile(options.out, { version: 1, ...enrolled });
    return ok({ sessionId: enrolled.sessionId });
  } catch (error) {
    return err(`Cannot enroll a session for ${options.cwd}: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    client.close();
  }
}
