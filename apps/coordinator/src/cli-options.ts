import { parseArgs } from 'node:util';
import { err, ok, type Result } from 'neverthrow';

export type CoordinatorCommand = 'start' | 'run' | 'stop' | 'status';

export interface CliOptions {
  readonly help: boolean;
  readonly command: CoordinatorCommand;
  readonly manifest: string | undefined;
  readonly dataDir: string | undefined;
  readonly configDir: string | undefined;
  readonly json: boolean;
}

export const USAGE = `Usage: pi-coordinator [start | run | stop | status] [options]

The pi coordinator keeps your session records and runs one pi-session process per open session.
One coordinator runs per user: its socket, pid, lock and connection file live in
$XDG_RUNTIME_DIR/pi (or <data dir>/run); session records in <data dir>/coordinator/sessions.db.

Commands:
  start               start the coordinator in the background, or find the one already running (default)
  run                 run in the foreground until SIGINT or SIGTERM (what "start" runs)
  stop                stop the running coordinator (it stops its session processes first)
  status              say whether a coordinator runs, and where

Options:
  --manifest FILE     a JSON plugin manifest (default: the built-in manifest)
  --data-dir DIR      where session records, sessions and logs live (default: $XDG_DATA_HOME/pi,
                      or ~/.local/share/pi)
  --config-dir DIR    settings, credentials and models.json (default: $XDG_CONFIG_HOME/pi, or ~/.config/pi)
  --json              print status as JSON
  -h, --help          show this help
`;

const COMMANDS: readonly CoordinatorCommand[] = ['start', 'run', 'stop', 'status'];

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
        json: { type: 'boolean' },
      },
    });
  } catch (error) {
    return err(`${error instanceof Error ? error.message : String(error)} (see --help)`);
  }
  const [command = 'start', ...rest] = parsed.positionals;
  if (!COMMANDS.includes(command as CoordinatorCommand)) {
    return err(`Unknown command "${command}": use start, run, stop or status (see --help)`);
  }
  if (rest.length > 0) return err(`Unexpected argument "${rest[0]}" (see --help)`);
  const values = parsed.values;
  return ok({
    help: values.help === true,
    command: command as CoordinatorCommand,
    manifest: values.manifest,
    dataDir: values['data-dir'],
    configDir: values['config-dir'],
    json: values.json === true,
  });
}
