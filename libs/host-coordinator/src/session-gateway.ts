import type { IncomingMessage } from 'node:http';
import { err, ok } from 'neverthrow';
import type { RemoteErrorEnvelope } from '@pi/remote';
import { checkSessionId, type SessionRepo } from '@pi/session-repo';
import type { Authenticate, RelayRoute, RelayTarget } from '@pi/transport-trpc';
import type { SessionCredentials } from './session-credentials';

/** What the coordinator knows of a session connected to it: the `wss:` URL it reported, when it listens. */
export interface ConnectedSession {
  readonly url: string | undefined;
}

/** A session process of this machine, from its connection file: its socket and the token it takes. */
export interface LocalSession {
  readonly socketPath: string;
  readonly token: string;
}

export interface SessionGatewayOptions {
  /** The coordinator's own policy: only a connection it makes a user connection may attach. */
  readonly authenticate: Authenticate;
  readonly repo: Pick<SessionRepo, 'get'>;
  /** Signs the credential the gateway presents to a session elsewhere, which takes its own credential as a token. */
  readonly credentials: SessionCredentials;
  /** The sessions connected upstream to this coordinator right now. */
  readonly connected: (sessionId: string) => ConnectedSession | undefined;
  /** A session running on this machine (its connection file in the data directory), else undefined. */
  readonly localSession: (sessionId: string) => Promise<LocalSession | undefined>;
  /** Where a session connected to another replica serves, from the records they share (else undefined). */
  readonly storedAddress?: (sessionId: string) => Promise<string | undefined>;
  /** The CA a session's certificate must chain to (`pi-coordinator --tls-ca`); else the system's CAs. */
  readonly ca?: string;
}

/** `/sessions/<id>`: the path a presentation connects to for one session through the coordinator's URL. */
const GATEWAY_PATH = /^\/sessions\/([^/?#]+)\/?(?:\?.*)?$/;

/**
 * The session a connection's path names (`wss://coordinator/sessions/<id>`), or undefined for the host's own path.
 * A broken escape is kept as written: no session id has a `%`, so the gateway refuses it after the token check, as
 * any other id that is not one (a throw here would end the process from ws's connection listener).
 */
export function gatewaySessionId(request: Pick<IncomingMessage, 'url'>): string | undefined {
  const match = GATEWAY_PATH.exec(request.url ?? '/');
  if (match === null) return undefined;
  const written = match[1] ?? '';
  try {
    return decodeURIComponent(written);
  } catch {
    return written;
  }
}

/**
 * The coordinator as a gateway (docs/decisions.md, "Presentations through the coordinator's URL"): a presentation
 * connects to `/sessions/<id>` with the user's token; the coordinator checks that token itself and relays the
 * connection to the session, which runs on this machine (its socket, with the token of its connection file) or on
 * another host (the `wss:` URL it reported upstream, with its own credential, which it takes as a token). The user
 * token never reaches the session and the session's token never reaches the presentation.
 */
export function sessionGateway(options: SessionGatewayOptions): (sessionId: string) => RelayRoute {
  return (sessionId) => async (params) => {
    const caller = await options.authenticate(params);
    if (caller.isErr())
      return refused(
        'not_authorized',
        'the coordinator refused the token in $PI_TOKEN (the user token of its connection file admits)',
      );
    if (caller.value.claims['kind'] !== 'user')
      return refused('not_authorized', 'Only the user attaches to a session through the coordinator');
    if (checkSessionId(sessionId).isErr()) return refused('invalid_argument', 'The path names no valid session id');
    const record = await options.repo.get(sessionId);
    if (record === undefined) return refused('unknown_session', `The coordinator has no session ${sessionId}`);
    const unreachable =
      (where: string) =>
      (reason: string): RemoteErrorEnvelope => ({
        code: 'session_unreachable',
        message: `The coordinator cannot reach session ${sessionId} at ${where}: ${reason}`,
      });
    const elsewhere = (url: string): RelayTarget => ({
      address: { url },
      connectionParams: { token: options.credentials.issue({ sessionId, workspaceId: record.workspaceId }) },
      unreachable: unreachable(url),
      ...(options.ca === undefined ? {} : { ca: options.ca }),
    });
    const here = options.connected(sessionId);
    if (here?.url !== undefined) return ok(elsewhere(here.url));
    const local = await options.localSession(sessionId);
    if (local !== undefined)
      return ok({
        address: { socketPath: local.socketPath },
        connectionParams: { token: local.token },
        unreachable: unreachable(local.socketPath),
      });
    // Connected to another replica: where it serves is in the records they share.
    const stored = here === undefined ? await options.storedAddress?.(sessionId) : undefined;
    if (stored !== undefined) return ok(elsewhere(stored));
    if (here !== undefined)
      return refused(
        'session_unreachable',
        `Session ${sessionId} runs on another host and serves no presentations on the network (pi-session --listen)`,
      );
    return refused(
      'session_not_running',
      record.status === 'closed'
        ? `Session ${sessionId} is not running (a TUI's /sessions resumes it)`
        : `Session ${sessionId} is ${record.status} through another replica, and serves no presentations on the network`,
    );
  };
}

function refused(code: string, message: string) {
  return err({ code, message });
}
