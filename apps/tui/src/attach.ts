import { err, ok, type Result } from 'neverthrow';
import { acceptSessionHost } from '@pi/host-tui';
import { createRpcClient, webSocketFactory, type RpcClient } from '@pi/transport-trpc';
import type { CliOptions } from './cli-options';
import { findSessionTarget, tokenSource, type SessionTarget } from './session-target';

export const CONNECT_TIMEOUT_MS = 10_000;

/** A connected client to one session, and what the footer calls that session. */
export interface Attachment {
  readonly client: RpcClient;
  readonly label: string;
  readonly sessionId: string | undefined;
}

/** Connects to a session and waits until it answers (at most `timeoutMs`); a failure is one line, nothing left open. */
export async function attach(
  target: SessionTarget,
  timeoutMs: number = CONNECT_TIMEOUT_MS,
): Promise<Result<Attachment, string>> {
  const client = createRpcClient({
    socketFactory: webSocketFactory(target.address),
    connectionParams: tokenSource(target),
    acceptHost: acceptSessionHost,
  });
  let timer: NodeJS.Timeout | undefined;
  const failure = await Promise.race([
    client.whenConnected().then(
      () => undefined,
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    ),
    new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve(`the session did not answer within ${timeoutMs / 1000} s`), timeoutMs);
      timer.unref();
    }),
  ]);
  clearTimeout(timer);
  if (failure === undefined) return ok({ client, label: target.label, sessionId: target.sessionId });
  client.close();
  return err(`Cannot attach to ${target.label}: ${failure}`);
}

/**
 * How this TUI attaches to another session by id, for the session picker: through that session's connection file
 * in the data directory. Undefined when the TUI was attached by an explicit socket or URL: such a TUI knows no data
 * directory it may look in, so it cannot switch.
 */
export function sessionSwitcher(
  options: CliOptions,
  dataDir: string,
  env: NodeJS.ProcessEnv,
  timeoutMs: number = CONNECT_TIMEOUT_MS,
): ((sessionId: string) => Promise<Result<Attachment, string>>) | undefined {
  if (options.socket !== undefined || options.url !== undefined) return undefined;
  return async (sessionId) => {
    const byId = { ...options, sessionId, connection: undefined, socket: undefined, url: undefined };
    const target = await findSessionTarget(byId, dataDir, env);
    return target.isErr() ? err(target.error) : attach(target.value, timeoutMs);
  };
}
