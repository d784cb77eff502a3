import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { err, ok, type Result } from 'neverthrow';
import { parseTlsListenFlags, type TlsListenFiles, webSocketUrlProblem } from '@pi/transport-trpc';

export interface CliOptions {
  readonly help: boolean;
  readonly cwd: string;
  readonly sessionId: string | undefined;
  readonly manifest: string | undefined;
  readonly socket: string | undefined;
  readonly port: number | undefined;
  readonly dataDir: string | undefined;
  readonly configDir: string | undefined;
  /** A pipe the coordinator that started this session writes its upstream handoff to (address and credential). */
  readonly upstreamFd: number | undefined;
  /** Stop when standard input closes: a launcher holding its write end takes the session with it however it ends. */
  readonly stopWithStdin: boolean;
  /** Reload the plugin set when a file under a plugin's own folder changes. */
  readonly dev: boolean;
  /** `--coordinator URL` (repeatable) with `--credential-file`: register upstream with a coordinator elsewhere. */
  readonly coordinator: RemoteCoordinator | undefined;
  /** `--listen HOST:PORT` with `--tls-cert` and `--tls-key`: serve presentations on TCP over TLS too. */
  readonly listen: TlsListenFiles | undefined;
}

export interface RemoteCoordinator {
  /** Its replicas' `ws:` or `wss:` URLs; a connection that fails goes to the next one. */
  readonly urls: readonly string[];
  /** What `pi-coordinator enroll --out` wrote: this session's id, workspace and credential. */
  readonly credentialFile: string;
  /** A PEM file of the CA that signed the coordinator's certificate (else the system's CAs are trusted). */
  readonly caFile: string | undefined;
}

export const USAGE = `Usage: pi-session [options]

Runs one pi session: opens (or creates) the session, starts its plugins, and serves presentations
over a Unix socket (mode 0600). A connection file (socket path and token, mode 0600) tells clients
how to connect. Stops cleanly on SIGINT or SIGTERM.

Options:
  --cwd DIR           the project directory the session works in (default: the current directory)
  --session ID        reopen the session with this id (default: create a new session)
  --manifest FILE     a JSON plugin manifest (default: the built-in manifest)
  --socket PATH       the Unix socket to listen on (default: $XDG_RUNTIME_DIR/pi/<id>.sock,
                      or <data dir>/run/<id>.sock)
  --port N            also listen on 127.0.0.1:N (0 picks a free port)
  --data-dir DIR      where sessions and connection files live (default: $XDG_DATA_HOME/pi,
                      or ~/.local/share/pi)
  --config-dir DIR    where settings, credentials and models.json live (default:
                      $XDG_CONFIG_HOME/pi, or ~/.config/pi)
  --upstream-fd N     read the coordinator's handoff (its socket and this session's credential)
                      from file descriptor N; the coordinator passes it when it starts a session
  --coordinator URL   register upstream with the coordinator at this ws:// or wss:// URL (give it
                      once per replica: when one dies the session reconnects to the next), as the
                      session of --credential-file FILE (what \`pi-coordinator enroll --out\` wrote)
  --tls-ca FILE       trust the coordinator's certificate when this CA (PEM) signed it
  --listen HOST:PORT  also serve presentations on TCP over TLS (wss://HOST:PORT/), with --tls-cert
                      FILE and --tls-key FILE (PEM); clients present the connection file's token
  --stop-with-stdin   stop when standard input closes (a launcher such as \`pi -p\` holds it open,
                      so the session ends with the launcher, even one that was killed)
  --dev               reload the plugins when a file under a plugin's own folder (a plugin
                      named by path) changes; a broken save keeps the running plugins
  -h, --help          show this help
`;

const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** Parses argv strictly: an unknown flag, a missing value or a bad number is one clear error line. */
export function parseCliOptions(argv: readonly string[], cwd: string): Result<CliOptions, string> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        help: { type: 'boolean', short: 'h' },
        cwd: { type: 'string' },
        session: { type: 'string' },
        manifest: { type: 'string' },
        socket: { type: 'string' },
        port: { type: 'string' },
        'data-dir': { type: 'string' },
        'config-dir': { type: 'string' },
        'upstream-fd': { type: 'string' },
        'stop-with-stdin': { type: 'boolean' },
        dev: { type: 'boolean' },
        coordinator: { type: 'string', multiple: true },
        'credential-file': { type: 'string' },
        'tls-ca': { type: 'string' },
        listen: { type: 'string' },
        'tls-cert': { type: 'string' },
        'tls-key': { type: 'string' },
      },
    });
  } catch (error) {
    return err(`${error instanceof Error ? error.message : String(error)} (see --help)`);
  }
  const values = parsed.values;
  // Digits only: Number() would also accept "1e3", " 80" or "0x50".
  const port =
    values.port === undefined ? undefined : /^[0-9]{1,5}$/.test(values.port) ? Number(values.port) : Number.NaN;
  if (port !== undefined && (!Number.isInteger(port) || port > 65535)) {
    return err(`--port must be a whole number from 0 to 65535, got "${values.port}"`);
  }
  const upstreamFd = values['upstream-fd'];
  if (upstreamFd !== undefined && !/^([3-9]|[1-9][0-9]{1,3})$/.test(upstreamFd)) {
    return err(`--upstream-fd must be a file descriptor number from 3 to 9999, got "${upstreamFd}"`);
  }
  if (upstreamFd !== undefined && values.session === undefined) {
    return err('--upstream-fd needs --session: a coordinator starts a session it has a record of');
  }
  if (values.session !== undefined && !SESSION_ID.test(values.session)) {
    return err(`--session must be letters, digits, "_" or "-" (at most 64), got "${values.session}"`);
  }
  const coordinator = parseCoordinator(values.coordinator, values['credential-file'], values['tls-ca']);
  if (coordinator.isErr()) return err(coordinator.error);
  if (coordinator.value !== undefined && upstreamFd !== undefined)
    return err('--coordinator and --upstream-fd are two ways to name the upstream: give one');
  const listen = parseTlsListenFlags(
    { listen: values.listen, certFile: values['tls-cert'], keyFile: values['tls-key'] },
    '0.0.0.0:7444',
  );
  if (listen.isErr()) return err(listen.error);
  return ok({
    help: values.help === true,
    cwd: values.cwd ?? cwd,
    sessionId: values.session,
    manifest: values.manifest,
    socket: values.socket,
    port,
    dataDir: values['data-dir'],
    configDir: values['config-dir'],
    upstreamFd: upstreamFd === undefined ? undefined : Number(upstreamFd),
    stopWithStdin: values['stop-with-stdin'] === true,
    dev: values.dev === true,
    coordinator: coordinator.value,
    listen: listen.value,
  });
}

function parseCoordinator(
  urls: readonly string[] | undefined,
  credentialFile: string | undefined,
  caFile: string | undefined,
): Result<RemoteCoordinator | undefined, string> {
  if (urls === undefined) {
    if (credentialFile !== undefined || caFile !== undefined)
      return err('--credential-file and --tls-ca go with --coordinator URL (see --help)');
    return ok(undefined);
  }
  for (const url of urls) {
    const problem = webSocketUrlProblem(url);
    if (problem !== undefined) return err(`--coordinator ${problem}`);
  }
  if (credentialFile === undefined)
    return err('--coordinator needs --credential-file FILE: the credential `pi-coordinator enroll --out` wrote');
  return ok({
    urls,
    credentialFile: resolve(credentialFile),
    caFile: caFile === undefined ? undefined : resolve(caFile),
  });
}
