import { parseArgs } from 'node:util';
import { err, ok, type Result } from 'neverthrow';

export const COMMANDS = ['services', 'call', 'watch', 'status'] as const;
export type Command = (typeof COMMANDS)[number];

/** How to reach the host: the session of a directory or id (from its connection file), or an address. */
export interface ConnectionFlags {
  readonly cwd: string;
  readonly session: string | undefined;
  readonly socket: string | undefined;
  readonly url: string | undefined;
  readonly dataDir: string | undefined;
}

export interface CliOptions {
  /** Undefined for `pi`, `pi --help` and `pi help`. */
  readonly command: Command | undefined;
  readonly help: boolean;
  readonly json: boolean;
  /** What follows the command: `<service>.<method>` and JSON arguments, a service name. */
  readonly operands: readonly string[];
  readonly connection: ConnectionFlags;
}

const OPERANDS: Record<Command, { min: number; max: number; usage: string }> = {
  services: { min: 0, max: 1, usage: 'pi services [service]' },
  call: { min: 1, max: Number.POSITIVE_INFINITY, usage: 'pi call <service>.<method> [json args...]' },
  watch: { min: 1, max: 1, usage: 'pi watch <service>' },
  status: { min: 0, max: 0, usage: 'pi status' },
};

/**
 * Parses argv strictly: an unknown flag or command, a missing value, a wrong number of operands or two ways to
 * connect at once is one error line. Flags may come anywhere; after `--` everything is an operand (a negative
 * number argument: `pi call s.m -- -1`).
 */
export function parseCliOptions(argv: readonly string[], cwd: string): Result<CliOptions, string> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: true,
      options: {
        help: { type: 'boolean', short: 'h' },
        json: { type: 'boolean' },
        cwd: { type: 'string' },
        session: { type: 'string' },
        socket: { type: 'string' },
        url: { type: 'string' },
        'data-dir': { type: 'string' },
      },
    });
  } catch (error) {
    return err(`${error instanceof Error ? error.message : String(error)} (see pi --help)`);
  }
  const { values, positionals } = parsed;
  const [first, ...rest] = positionals;
  const help = values.help === true || first === 'help';
  const named = first === 'help' ? rest[0] : first;
  if (named !== undefined && !isCommand(named)) return err(`Unknown command "${named}" (see pi --help)`);
  const command = named;
  if (values.socket !== undefined && values.url !== undefined) return err('Give --socket or --url, not both');
  if ((values.socket ?? values.url) !== undefined && values.session !== undefined) {
    return err('--session finds a session by id; with --socket or --url, leave it out');
  }
  const operands = first === 'help' ? [] : rest;
  if (command !== undefined && !help) {
    const { min, max, usage } = OPERANDS[command];
    if (operands.length < min || operands.length > max) return err(`Usage: ${usage} (see pi ${command} --help)`);
  }
  return ok({
    command,
    help,
    json: values.json === true,
    operands,
    connection: {
      cwd: values.cwd ?? cwd,
      session: values.session,
      socket: values.socket,
      url: values.url,
      dataDir: values['data-dir'],
    },
  });
}

function isCommand(name: string): name is Command {
  return (COMMANDS as readonly string[]).includes(name);
}
