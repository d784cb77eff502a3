import { PACKAGES_USAGE } from './commands/package-command-line';
import type { Command } from './cli-options';

const CONNECTION = `Connection (services, call, watch, status):
  --cwd DIR           the session running in DIR (default: the current directory)
  --session ID        the running session with this id
  --socket PATH       a host's Unix socket; the token comes from $PI_TOKEN
  --url URL           a host's ws:// URL; the token comes from $PI_TOKEN
  --data-dir DIR      where sessions and connection files live (default: $XDG_DATA_HOME/pi,
                      or ~/.local/share/pi)
  --json              machine output: JSON only
  -h, --help          show help`;

const COORDINATOR = `Coordinator (sessions):
  --cwd DIR           the project directory whose sessions are meant (default: the current directory)
  --data-dir DIR      where pi keeps its files (default: $XDG_DATA_HOME/pi, or ~/.local/share/pi); the
                      coordinator's connection file is in $XDG_RUNTIME_DIR/pi, or <data dir>/run
  --json              machine output: JSON only
  -h, --help          show help`;

const EXIT_CODES = `Exit codes:
  0 ok · 1 internal, invalid_result · 2 usage · 3 unavailable, disconnected · 4 not_authorized
  5 unknown_service, unknown_member · 6 invalid_argument · 7 cancelled, timeout
  8 limit_exceeded, no_handler, stale_reference · 9 a service's own code (for example unknown_model)`;

const PRINT = `Print mode:
  pi -p "prompt"      run one prompt in the session of this directory (one is started for it when none
                      runs, and stopped after); the final answer goes to stdout, exit 0; a failed run is one
                      line on stderr. Piped text is added to the prompt: git diff | pi -p "review this"
  --no-session        a session of its own, removed afterwards
  --model P/ID[:T]    the model (and thinking level off, low or high) to answer with
  --mode json         every event of the run as one JSON line instead of the answer
  --allow-tools       run tools that ask for confirmation (they are denied otherwise)`;

const RPC = `RPC mode (for programs in any language; docs/rpc-mode.md):
  pi --mode rpc       the session of this directory (one is started for it when none runs, and stopped
                      when stdin ends) over stdin and stdout: one JSON command per line in (prompt, steer,
                      follow_up, abort, call, watch, unwatch, describe, each with an optional id), one JSON
                      line out per response and per event of the session; a bad line is answered with an
                      error line and the next is read
  --no-session        a session of its own, removed afterwards
  --allow-tools       run tools that ask for confirmation (they are denied otherwise)`;

export const USAGE = `Usage: pi <command> [options]
       pi -p "prompt" [--no-session] [--model provider/id[:thinking]] [--mode text|json] [--allow-tools]
       pi --mode rpc [--no-session] [--allow-tools]

Talks to a running pi session (or any pi host), or to the pi coordinator, through the typed client library.

Commands:
  services [service]                 what the session serves: methods, state and events
  call <service>.<method> [args...]  call a method with JSON arguments; prints its JSON result
  watch <service>                    the state snapshot, then each change and event, as JSON lines
  status                             the session found, its id, directory, process and connection;
                                     and whether the coordinator runs
  sessions [list|create|rm|stop]     the coordinator's sessions of this directory: list, start, stop or
                                     remove one
  install <source> [-l]              install a pi package (plugins, skills, prompts, themes) for you or,
                                     with -l, for the project; remove <name> [-l] and list [-l] too

Run pi <command> --help for one command.

${PACKAGES_USAGE}

${PRINT}

${RPC}

${CONNECTION}

${COORDINATOR}

${EXIT_CODES}
`;

const COMMAND_USAGE: Record<Command, string> = {
  print: PRINT,
  rpc: RPC,
  services: `Usage: pi services [service] [options]

Lists the services the host serves (from its $rpc.describe): each method with its arguments and result,
its state cells and event streams, and the interactions the host may ask a client to answer. With a
service, only that one. With --json, the description itself: every schema as JSON Schema.`,
  call: `Usage: pi call <service>.<method> [json args...] [options]

Calls a method and prints its result as JSON (nothing for a void result; --json prints { "value": ... },
{} or { "ref": ... }). Each argument is one JSON value: quote strings ('"text"'), and put -- before an
argument that starts with "-". An error prints its stable code and message on stderr and sets the exit
code; an unknown service or method lists what exists. Ctrl-C cancels the call.

Examples:
  pi call models.refresh
  pi call models.select '{"provider":"offline","modelId":"echo"}'
  pi call chat.prompt '{"text":"hello"}'`,
  watch: `Usage: pi watch <service> [options]

Prints the service's state snapshot, then every state change and event, one JSON line each
({ "kind": "snapshot" | "state" | "event", ... }), until Ctrl-C or SIGTERM. After a reconnect a fresh
snapshot follows.`,
  status: `Usage: pi status [options]

Prints the session found (its id, directory, process id, socket and connection file), the connection's
state and the services it serves, then whether the coordinator runs: its process id and socket, how many
sessions it keeps and how many of them are this directory's (--json: a "coordinator" field). Exits 3 when
no session is running there; the coordinator line is printed all the same. With --socket or --url, the
coordinator is not asked: that host may be another machine's.`,
  sessions: `Usage: pi sessions [list | create | rm <id> | stop <id>] [options]

Lists, creates, stops and removes sessions through the pi coordinator (pi-coordinator start), which keeps the
session records and runs one pi-session process per session. It is found through its connection file,
which holds the local user's token. With no coordinator running, pi sessions exits 3.

  list [--all]        the sessions of the directory's workspace (--all: of every workspace, with their
                      directories), newest first: id, title, status, last update. --json: an array of records
  create [--title T]  a session for the directory (without a title its first prompt names it); waits
                      until its process runs, then prints its id (--json: its record)
  rm <id>             stops the session's process and removes its record (its session file stays on disk)
  stop <id>           stops the session's process and keeps its record (pi-tui --start, /sessions resume
                      it); a session on another host is asked to stop over its connection (--json: its record)

Examples:
  pi sessions
  pi sessions create --title "fix the build" --cwd ~/src/app
  pi sessions list --all --json
  pi sessions stop s-2026-12-01-1f57e819
  pi sessions rm s-2026-12-01-1f57e819`,
};

export function usageOf(command: Command | undefined): string {
  if (command === undefined) return USAGE;
  return `${COMMAND_USAGE[command]}\n\n${command === 'sessions' ? COORDINATOR : CONNECTION}\n\n${EXIT_CODES}\n`;
}
