import { err, ok, type Result } from 'neverthrow';
import { acceptSessionHost } from '@pi/host-tui';
import {
  CERTIFICATE_NOT_TRUSTED,
  VERSION_MISMATCH,
  createRpcClient,
  webSocketFactory,
  type RpcClient,
} from '@pi/transport-trpc';
import type { CliOptions } from './cli-options';
import { coordinatorGateway, findSessionTarget, tokenSource, type SessionTarget } from './session-target';

export const CONNECT_TIMEOUT_MS = 10_000;

/** A drop the client retries, and the refusals `whenConnected` rejects with: every other code ends the attach. */
const RETRIED_OR_REJECTED: ReadonlySet<string> = new Set(['disconnected', 'not_authorized', VERSION_MISMATCH]);

/** A connected client to one session, and what the footer calls that session. */
export interface Attachment {
  readonly client: RpcClient;
  readonly label: string;
  readonly sessionId: string | undefined;
}

/**
 * Connects to a session and waits until it answers (at most `timeoutMs`); a failure is one line, nothing left open.
 * `own` are this TUI's plugins, checked against the session's at every hello.
 */
export async function attach(
  target: SessionTarget,
  timeoutMs: number = CONNECT_TIMEOUT_MS,
  own: Parameters<typeof acceptSessionHost>[1] = [],
): Promise<Result<Attachment, string>> {
  const client = createRpcClient({
    socketFactory: webSocketFactory(target.address, target.ca === undefined ? {} : { ca: target.ca }),
    connectionParams: tokenSource(target),
    // The TUI's own plugins: a session whose half of one of them was built for another API major is refused by name.
    acceptHost: (hello) => acceptSessionHost(hello, own),
  });
  let timer: NodeJS.Timeout | undefined;
  let stopWatching: () => void = () => undefined;
  const failure = await Promise.race([
    client.whenConnected().then(
      () => undefined,
      (error: unknown) => refusal(error, target),
    ),
    // A certificate this TUI does not trust stays untrusted: say so now rather than retry until the timeout. So does
    // a refusal that names its own code (a coordinator's gateway: no such session, not running, unreachable).
    new Promise<string>((resolve) => {
      stopWatching = client.connection.subscribe((state) => {
        if (state.status !== 'disconnected') return;
        if (state.reason.message.includes(CERTIFICATE_NOT_TRUSTED))
          resolve(`${state.reason.message}; give the CA that signed it with --tls-ca FILE`);
        else if (!RETRIED_OR_REJECTED.has(state.reason.code)) resolve(state.reason.message);
      });
    }),
    new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve(`the session did not answer within ${timeoutMs / 1000} s`), timeoutMs);
      timer.unref();
    }),
  ]);
  clearTimeout(timer);
  stopWatching();
  if (failure === undefined) return ok({ client, label: target.label, sessionId: target.sessionId });
  client.close();
  return err(`Cannot attach to ${target.label}: ${failure}`);
}

/**
 * Why the session refused this TUI: a token given in $PI_TOKEN is named as the one to check. Through a coordinator's
 * gateway the coordinator checks the (user) token and says why in its own words, passed on as they are; the session
 * behind it never sees that token.
 */
function refusal(error: unknown, target: SessionTarget): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
  const throughGateway = 'url' in target.address && coordinatorGateway(target.address.url) !== undefined;
  if (code === 'not_authorized' && target.file === undefined && !throughGateway)
    return 'the session refused the token in $PI_TOKEN (its connection file holds the one it takes)';
  return message;
}

/**
 * How this TUI attaches to another session by id, for the session picker: through that session's connection file
 * in the data directory, checking the session's plugins against `own()` (the plugins the next host starts with,
 * which a /reload may have changed since) as the first attach does. Attached through a coordinator's gateway
 * (`wss://…/sessions/ID`), through the same coordinator with the same token. Undefined when the TUI was attached by
 * an explicit socket or a session's own URL: such a TUI knows no data directory it may look in, so it cannot switch.
 */
export function sessionSwitcher(
  options: CliOptions,
  dataDir: string,
  env: NodeJS.ProcessEnv,
  own: () => Parameters<typeof acceptSessionHost>[1],
  timeoutMs: number = CONNECT_TIMEOUT_MS,
): ((sessionId: string) => Promise<Result<Attachment, string>>) | undefined {
  const gateway = options.url === undefined ? undefined : coordinatorGateway(options.url);
  if (gateway !== undefined)
    return async (sessionId) => {
      const target = await findSessionTarget({ ...options, url: gateway.urlFor(sessionId) }, dataDir, env);
      return target.isErr() ? err(target.error) : attach(target.value, timeoutMs, own());
    };
  if (options.socket !== undefined || options.url !== undefined) return undefined;
  return async (sessionId) => {
    const byId = { ...options, sessionId, connection: undefined, socket: undefined, url: undefined };
    const target = await findSessionTarget(byId, dataDir, env);
    return target.isErr() ? err(target.error) : attach(target.value, timeoutMs, own());
  };
}
