import type { Command } from './cli-options';

const CONNECTION = `Connection (every command):
  --cwd DIR           the session running in DIR (default: the current directory)
  --session ID        the running session with this id
  --socket PATH       a host's Unix socket; the token comes from $PI_TOKEN
  --url URL           a host's ws:// URL; the token comes from $PI_TOKEN
  --data-dir DIR      where sessions and connection files live (default: $XDG_DATA_HOME/pi,
                      or ~/.local/share/pi)
  --json              machine output: JSON only
  -h, --help          show help`;

const EXIT_CODES = `Exit codes:
  0 ok · 1 internal, invalid_result · 2 usage · 3 unavailable, disconnected · 4 not_authorized
  5 unknown_service, unknown_member · 6 invalid_argument · 7 cancelled, timeout
  8 limit_exceeded, no_handler, stale_reference · 9 a service's own code (for example unknown_model)`;

export const USAGE = `Usage: pi <command> [options]

Talks to a running pi session (or any pi host) through the typed client library.

Commands:
  services [service]                 what the session serves: methods, state and events
  call <service>.<method> [args...]  call a method with JSON arguments; prints its JSON result
  watch <service>                    the state snapshot, then each change and event, as JSON lines
  status                             the session found, its id, directory, process and connection

Run pi <command> --help for one command.

${CONNECTION}

${EXIT_CODES}
`;

const COMMAND_USAGE: Record<Command, string> = {
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
state and the services it serves. Exits 3 when no session is running there.`,
};

export function usageOf(command: Command | undefined): string {
  return command === undefined ? USAGE : `${COMMAND_USAGE[command]}\n\n${CONNECTION}\n\n${EXIT_CODES}\n`;
}
