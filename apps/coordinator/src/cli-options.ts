import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { err, ok, type Result } from 'neverthrow';
import { parseTlsListenFlags, type TlsListenFiles, webSocketUrlProblem } from '@pi/transport-trpc';

export type CoordinatorCommand = 'start' | 'run' | 'stop' | 'status' | 'enroll';

export interface CliOptions {
  readonly help: boolean;
  readonly command: CoordinatorCommand;
  readonly manifest: string | undefined;
  readonly dataDir: string | undefined;
  readonly configDir: string | undefined;
  readonly json: boolean;
  /** How long a session process may sit idle (no client, no run) before it is stopped; 0: never. */
  readonly idleStopMs: number;
  /** `--idle-stop` as given, to pass on from `start` to the `run` it starts. */
  readonly idleStop: string | undefined;
  /** `--database URL`: session records in PostgreSQL (else `PI_DATABASE_URL`, else SQLite). */
  readonly database: string | undefined;
  /** `--listen HOST:PORT` with `--tls-cert` and `--tls-key`: also serve over TLS on TCP (the user token admits). */
  readonly listen: TlsListenFiles | undefined;
  /** `enroll`: the session to enroll for running elsewhere, and the file its credential goes to. */
  readonly enroll: EnrollOptions | undefined;
  /** `--replica URL`: the other replicas' URLs, handed to the sessions this one starts so they can fail over. */
  readonly replicas: readonly string[];
  /**
   * `--tls-ca FILE`: the CA the replicas' certificates chain to, handed on with them, and the one the certificates of
   * sessions on other hosts chain to, which the gateway relays presentations to.
   */
  readonly tlsCa: string | undefined;
}

export interface EnrollOptions {
  /** The project directory on the host that will run the session (absolute, as that host names it). */
  readonly cwd: string;
  readonly sessionId: string | undefined;
  readonly title: string | undefined;
  readonly out: string;
}

/** A session process idle this long is stopped unless `--idle-stop` says otherwise (docs/decisions.md). */
export const DEFAULT_IDLE_STOP_MS = 10 * 60_000;

export const USAGE = `Usage: pi-coordinator [start | run | stop | status] [options]

The pi coordinator keeps your session records and runs one pi-session process per open session.
One coordinator runs per user: its socket, pid, lock and connection file live in
$XDG_RUNTIME_DIR/pi (or <data dir>/run); session records in <data dir>/coordinator/sessions.db.

Commands:
  start               start the coordinator in the background, or find the one already running (default)
  run                 run in the foreground until SIGINT or SIGTERM (what "start" runs)
  stop                stop the running coordinator (it stops its session processes first)
  status              say whether a coordinator runs, and where
  enroll              enroll a session that will run elsewhere (another data directory or host):
                      --cwd DIR (its absolute project directory there) --out FILE, optionally
                      --session ID and --title TEXT; the running coordinator keeps its record and
                      writes its credential to FILE (mode 0600), for pi-session --credential-file

Options:
  --manifest FILE     a JSON plugin manifest (default: the built-in manifest)
  --data-dir DIR      where session records, sessions and logs live (default: $XDG_DATA_HOME/pi,
                      or ~/.local/share/pi)
  --config-dir DIR    settings, credentials and models.json (default: $XDG_CONFIG_HOME/pi, or ~/.config/pi)
  --idle-stop TIME    stop a session process after TIME with no client attached and no run in progress
                      (e.g. 10m, 90s, 1h, 500ms; 0 or never: keep it running); default 10m. Its record stays,
                      and attaching to it (pi-tui, /sessions) starts it again where it left off
  --database URL      keep the session records in PostgreSQL (postgres://user:password@host:port/db), which
                      several coordinators (each with its own runtime directory) may share; default:
                      $PI_DATABASE_URL, else SQLite in <data dir>/coordinator/sessions.db
  --listen HOST:PORT  also serve on TCP over TLS (wss://HOST:PORT/), with --tls-cert FILE and --tls-key FILE
                      (PEM); clients present the user token from the coordinator's connection file
  --replica URL       another replica's wss:// URL (repeatable): the sessions this coordinator starts are
                      handed it, and reconnect there when this coordinator dies
  --tls-ca FILE       the CA (PEM) that signed the replicas' certificates (handed on with them) and those
                      of sessions on other hosts (--listen), which a presentation reaches through this
                      coordinator: wss://HOST:PORT/sessions/ID with the user token (pi-tui --url)
  --json              print status as JSON
  -h, --help          show this help
`;

const COMMANDS: readonly CoordinatorCommand[] = ['start', 'run', 'stop', 'status', 'enroll'];

/** Parses argv strictly: an unknown flag or command is one clear error line. */
export function parseCliOptions(argv: readonly string[]): Result<CliOptions, string> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: true,
      options: {
        help: { type: 'boolean', short: 'h' },
        manifest: { type: 'string' },
        'data-dir': { type: 'string' },
        'config-dir': { type: 'string' },
        'idle-stop': { type: 'string' },
        database: { type: 'string' },
        listen: { type: 'string' },
        'tls-cert': { type: 'string' },
        'tls-key': { type: 'string' },
        json: { type: 'boolean' },
        cwd: { type: 'string' },
        session: { type: 'string' },
        title: { type: 'string' },
        out: { type: 'string' },
        replica: { type: 'string', multiple: true },
        'tls-ca': { type: 'string' },
      },
    });
  } catch (error) {
    return err(`${error instanceof Error ? error.message : String(error)} (see --help)`);
  }
  const [command = 'start', ...rest] = parsed.positionals;
  if (!COMMANDS.includes(command as CoordinatorCommand)) {
    return err(`Unknown command "${command}": use start, run, stop, status or enroll (see --help)`);
  }
  if (rest.length > 0) return err(`Unexpected argument "${rest[0]}" (see --help)`);
  const values = parsed.values;
  const idleStop = values['idle-stop'];
  const idleStopMs = idleStop === undefined ? DEFAULT_IDLE_STOP_MS : parseDuration(idleStop);
  if (idleStopMs === undefined) {
    return err(`--idle-stop takes a time such as 10m, 90s, 1h or 500ms, or 0 (never): not "${idleStop}" (see --help)`);
  }
  const listen = parseTlsListenFlags(
    { listen: values.listen, certFile: values['tls-cert'], keyFile: values['tls-key'] },
    '0.0.0.0:7443',
  );
  if (listen.isErr()) return err(listen.error);
  const enroll = parseEnroll(command as CoordinatorCommand, values);
  if (enroll.isErr()) return err(enroll.error);
  for (const url of values.replica ?? []) {
    const problem = webSocketUrlProblem(url);
    if (problem !== undefined) return err(`--replica ${problem}`);
  }
  return ok({
    help: values.help === true,
    command: command as CoordinatorCommand,
    manifest: values.manifest,
    dataDir: values['data-dir'],
    configDir: values['config-dir'],
    json: values.json === true,
    idleStopMs,
    idleStop,
    database: values.database,
    listen: listen.value,
    enroll: enroll.value,
    replicas: values.replica ?? [],
    tlsCa: values['tls-ca'] === undefined ? undefined : resolve(values['tls-ca']),
  });
}

/** `enroll` needs an absolute --cwd and an --out file; its flags mean nothing to the other commands. */
function parseEnroll(
  command: CoordinatorCommand,
  values: { cwd?: string; session?: string; title?: string; out?: string },
): Result<EnrollOptions | undefined, string> {
  const given = [values.cwd, values.session, values.title, values.out].some((value) => value !== undefined);
  if (command !== 'enroll')
    return given ? err('--cwd, --session, --title and --out belong to enroll (see --help)') : ok(undefined);
  if (values.cwd === undefined || values.out === undefined)
    return err('enroll needs --cwd DIR (the project directory where the session runs) and --out FILE (see --help)');
  if (!values.cwd.startsWith('/'))
    return err(`enroll --cwd names the directory as the session's host does, from /: not "${values.cwd}"`);
  if (values.session !== undefined && !/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/.test(values.session))
    return err(`--session must be letters, digits, "_" or "-" (at most 64), got "${values.session}"`);
  return ok({ cwd: values.cwd, sessionId: values.session, title: values.title, out: resolve(values.out) });
}

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** `10m`, `90s`, `1h`, `500ms` in milliseconds; `0` and `never` are 0; anything else undefined. */
export function parseDuration(text: string): number | undefined {
  if (text === 'never' || text === '0') return 0;
  const match = /^(\d{1,9})(ms|s|m|h)$/.exec(text);
  if (match === null) return undefined;
  const milliseconds = Number(match[1]) * (UNIT_MS[match[2] ?? ''] ?? Number.NaN);
  // setTimeout holds at most 2^31-1 ms (about 24.8 days): a longer wait would fire at once.
  return milliseconds <= 2 ** 31 - 1 ? milliseconds : undefined;
}
