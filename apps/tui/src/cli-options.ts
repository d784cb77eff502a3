import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { err, ok, type Result } from 'neverthrow';
import { webSocketUrlProblem } from '@pi/transport-trpc/url';

export interface CliOptions {
  readonly help: boolean;
  readonly cwd: string;
  readonly sessionId: string | undefined;
  readonly connection: string | undefined;
  readonly socket: string | undefined;
  readonly url: string | undefined;
  /** A PEM file of the CA that signed a `wss:` session's certificate (else the system's CAs are trusted). */
  readonly tlsCa: string | undefined;
  readonly manifest: string | undefined;
  readonly dataDir: string | undefined;
  readonly configDir: string | undefined;
  /** Open the session of `cwd` through the coordinator, starting either when needed (what `npm start` does). */
  readonly start: boolean;
  /** `/reload` by itself when a file under one of the TUI's plugin folders changes. */
  readonly dev: boolean;
}

export const USAGE = `Usage: pi-tui [options]

Attaches a terminal UI to a running pi session. By default it attaches to the session running in the
current directory. With --start it goes through your coordinator (starting it when none runs), which
opens the directory's session (the running one, else the latest resumed, else a new one) and keeps it
after you quit; \`pi-coordinator stop\` stops the coordinator and its sessions.

Options:
  --cwd DIR           find (or --start) the session of this directory (default: the current directory)
  --session ID        attach to the running session with this id
  --connection FILE   attach through a connection file written by pi-session
  --socket PATH       attach to this Unix socket; the token comes from $PI_TOKEN
  --url URL           attach to this ws:// or wss:// URL: a session's --listen, on any host, with the
                      token of its connection file in $PI_TOKEN; or a coordinator's, as
                      wss://HOST:PORT/sessions/ID, with the coordinator's user token in $PI_TOKEN
  --tls-ca FILE       with a wss:// --url: trust the host's certificate when this CA (PEM) signed it
  --start             open --cwd's session through the coordinator (in a pi checkout, \`npm start\`)
  --manifest FILE     a JSON plugin manifest (default: the built-in manifest)
  --data-dir DIR      where sessions and connection files live (default: $XDG_DATA_HOME/pi)
  --config-dir DIR    where keybindings.json and settings live (default: $XDG_CONFIG_HOME/pi)
  --dev               run /reload (the session's plugins, then the TUI's) when a file under a
                      plugin's own folder (a plugin named by path) changes
  -h, --help          show this help

Keys: Enter sends, Ctrl+J (or Shift+Enter) inserts a newline, Esc interrupts the run, PgUp/PgDn scroll,
End follows the output again, Ctrl+L picks a model, Ctrl+T cycles the thinking level, Ctrl+C clears the
editor and twice quits, Ctrl+D quits on an empty editor. /help lists every command and key.
Rebind keys in <config dir>/keybindings.json: { "submit": ["enter"], "newline": ["ctrl+j"] }.
`;

/** Parses argv strictly: an unknown flag, a missing value or conflicting ways to attach is one error line. */
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
        connection: { type: 'string' },
        socket: { type: 'string' },
        url: { type: 'string' },
        'tls-ca': { type: 'string' },
        start: { type: 'boolean' },
        dev: { type: 'boolean' },
        manifest: { type: 'string' },
        'data-dir': { type: 'string' },
        'config-dir': { type: 'string' },
      },
    });
  } catch (error) {
    return err(`${error instanceof Error ? error.message : String(error)} (see --help)`);
  }
  const { values } = parsed;
  const ways = [values.session, values.connection, values.socket, values.url].filter((value) => value !== undefined);
  if (ways.length > 1) return err('Give one of --session, --connection, --socket or --url (see --help)');
  if (values.start === true && ways.length > 0)
    return err('--start finds the session by --cwd; it takes no --session, --connection, --socket or --url');
  const urlProblem = values.url === undefined ? undefined : webSocketUrlProblem(values.url);
  if (urlProblem !== undefined) return err(`--url ${urlProblem}`);
  if (values['tls-ca'] !== undefined && !values.url?.startsWith('wss:'))
    return err('--tls-ca goes with a wss:// --url (see --help)');
  return ok({
    help: values.help ?? false,
    cwd: values.cwd ?? cwd,
    sessionId: values.session,
    connection: values.connection,
    socket: values.socket,
    url: values.url,
    tlsCa: values['tls-ca'] === undefined ? undefined : resolve(values['tls-ca']),
    manifest: values.manifest,
    dataDir: values['data-dir'],
    configDir: values['config-dir'],
    start: values.start ?? false,
    dev: values.dev ?? false,
  });
}
