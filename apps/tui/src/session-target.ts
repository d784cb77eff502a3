import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { err, ok, type Result } from 'neverthrow';
import { connectionFilePath, findRunningSession, readConnectionFile } from '@pi/connection-files';
import type { ConnectAddress } from '@pi/transport-trpc';
import type { CliOptions } from './cli-options';

/** Where the TUI attaches: the address, the token (read again before each attempt), and what the footer calls it. */
export interface SessionTarget {
  readonly address: ConnectAddress;
  readonly token: string;
  /** The connection file, when there is one: a restarted session writes a new token there. */
  readonly file: string | undefined;
  readonly label: string;
  /** The session's id, when the target was found in the data directory (not by socket or URL). */
  readonly sessionId: string | undefined;
  /** The CA (PEM) a `wss:` session's certificate must chain to, from `--tls-ca`; else the system's CAs. */
  readonly ca?: string;
}

/** The session the flags name: a connection file, a session id, a socket or URL (token from $PI_TOKEN), or the one in --cwd. */
export async function findSessionTarget(
  options: CliOptions,
  dataDir: string,
  env: NodeJS.ProcessEnv,
): Promise<Result<SessionTarget, string>> {
  if (options.socket !== undefined || options.url !== undefined) {
    const token = env['PI_TOKEN'];
    if (token === undefined || token === '') return err('--socket and --url need the session token in $PI_TOKEN');
    const address: ConnectAddress =
      options.socket !== undefined ? { socketPath: resolve(options.socket) } : { url: options.url as string };
    const label = options.socket ?? options.url ?? '';
    // Through a coordinator's gateway the URL names the session.
    const sessionId = options.url === undefined ? undefined : coordinatorGateway(options.url)?.sessionId;
    if (options.tlsCa === undefined) return ok({ address, token, file: undefined, label, sessionId });
    try {
      const ca = await readFile(options.tlsCa, 'utf8');
      return ok({ address, token, file: undefined, label, sessionId, ca });
    } catch (error) {
      return err(`Cannot read --tls-ca ${options.tlsCa}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
  }
  const info =
    options.connection !== undefined
      ? await readConnectionFile(resolve(options.connection))
      : await findRunningSession(dataDir, { sessionId: options.sessionId, cwd: resolve(options.cwd) });
  if (info.isErr()) return err(info.error);
  const { socketPath, token, cwd, sessionId } = info.value;
  const file = options.connection !== undefined ? resolve(options.connection) : connectionFilePath(dataDir, sessionId);
  return ok({ address: { socketPath }, token, file, label: `${cwd} · ${sessionId}`, sessionId });
}

/** The token to send on each attempt: the connection file's current one (a restarted session rotates it). */
export function tokenSource(target: SessionTarget): () => Promise<{ token: string }> {
  let last = target.token;
  return async () => {
    if (target.file !== undefined) {
      const info = await readConnectionFile(target.file);
      if (info.isOk()) last = info.value.token;
    }
    return { token: last };
  };
}

/**
 * A coordinator's gateway URL (`wss://HOST:PORT/sessions/ID`): the session it names, and the same URL for any other
 * session (`urlFor`). Undefined for any other URL (a session's own `--listen`).
 */
export function coordinatorGateway(
  url: string,
): { readonly sessionId: string; urlFor(sessionId: string): string } | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const match = /^(.*)\/sessions\/([^/]+)\/?$/.exec(parsed.pathname);
  if (match === null) return undefined;
  const prefix = match[1] ?? '';
  let sessionId: string;
  try {
    sessionId = decodeURIComponent(match[2] ?? '');
  } catch {
    // A broken escape (`%E0`) names no session.
    return undefined;
  }
  return {
    sessionId,
    urlFor: (other) => {
      const next = new URL(parsed.href);
      next.pathname = `${prefix}/sessions/${encodeURIComponent(other)}`;
      return next.href;
    },
  };
}
