import { parseArgs } from 'node:util';
import { err, ok, type Result } from 'neverthrow';

export const COMMANDS = ['services', 'call', 'watch', 'status', 'sessions'] as const;
/** A command named on the line, `print` (given as `-p`) or `rpc` (given as `--mode rpc`). */
export type Command = (typeof COMMANDS)[number] | 'print' | 'rpc';

/** `pi -p "prompt"`: one prompt, its answer printed. */
export interface PrintFlags {
  readonly prompt: string;
  /** `--no-session`: a session of its own, removed afterwards. */
  readonly noSession: boolean;
  /** `--model provider/modelId[:thinking]`. */
  readonly model: string | undefined;
  /** `--mode text` (the final answer) or `json` (every event of the run, one JSON line each). */
  readonly mode: 'text' | 'json';
  /** `--allow-tools`: tools that ask for confirmation run; otherwise they are denied. */
  readonly allowTools: boolean;
}

/** `pi --mode rpc`: JSON lines in and out over stdin and stdout (rpc-mode/). */
export interface RpcFlags {
  readonly noSession: boolean;
  readonly allowTools: boolean;
}

/** What `pi sessions` does; `pi sessions` alone lists. */
export const SESSIONS_ACTIONS = ['list', 'create', 'rm', 'stop'] as const;
export type SessionsAction = (typeof SESSIONS_ACTIONS)[number];

/** How to reach the host: the session of a directory or id (from its connection file), or an address. */
export interface ConnectionFlags {
  readonly cwd: string;
  readonly session: string | undefined;
  readonly socket: string | undefined;
  readonly url: string | undefined;
  readonly dataDir: string | undefined;
}

/** `pi sessions <action>`, which talks to the coordinator (found through its connection file, never an address). */
export interface SessionsFlags {
  readonly action: SessionsAction;
  /** `create --title`; undefined: the session's first prompt names it. */
  readonly title: string | undefined;
  /** `list --all`: every workspace, not only the directory's. */
  readonly all: boolean;
}

export interface CliOptions {
  /** Undefined for `pi`, `pi --help` and `pi help`. */
  readonly command: Command | undefined;
  readonly help: boolean;
  readonly json: boolean;
  /** What follows the command (and a sessions action): `<service>.<method>` and JSON arguments, a service, an id. */
  readonly operands: readonly string[];
  readonly connection: ConnectionFlags;
  /** Set for the `sessions` command only. */
  readonly sessions?: SessionsFlags | undefined;
  /** Set for `-p` only. */
  readonly print?: PrintFlags | undefined;
  /** Set for `--mode rpc` only. */
  readonly rpc?: RpcFlags | undefined;
}

interface Arity {
  readonly min: number;
  readonly max: number;
  readonly usage: string;
}

const OPERANDS: Record<Exclude<Command, 'sessions' | 'print' | 'rpc'>, Arity> = {
  services: { min: 0, max: 1, usage: 'pi services [service]' },
  call: { min: 1, max: Number.POSITIVE_INFINITY, usage: 'pi call <service>.<method> [json args...]' },
  watch: { min: 1, max: 1, usage: 'pi watch <service>' },
  status: { min: 0, max: 0, usage: 'pi status' },
};

const SESSIONS_OPERANDS: Record<SessionsAction, Arity> = {
  list: { min: 0, max: 0, usage: 'pi sessions list [--all | --cwd DIR] [--json]' },
  create: { min: 0, max: 0, usage: 'pi sessions create [--title TITLE] [--cwd DIR] [--json]' },
  rm: { min: 1, max: 1, usage: 'pi sessions rm <id> [--json]' },
  stop: { min: 1, max: 1, usage: 'pi sessions stop <id> [--json]' },
};

/**
 * Parses argv strictly: an unknown flag, command or sessions action, a missing value, a wrong number of operands,
 * two ways to connect at once or a flag of another command is one error line. Flags may come anywhere; after `--`
 * everything is an operand (a negative number argument: `pi call s.m -- -1`).
 */
export function parseCliOptions(argv: readonly string[], cwd: string, stdinText?: string): Result<CliOptions, string> {
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
        title: { type: 'string' },
        all: { type: 'boolean' },
        print: { type: 'string', short: 'p' },
        'no-session': { type: 'boolean' },
        model: { type: 'string' },
        mode: { type: 'string' },
        'allow-tools': { type: 'boolean' },
      },
    });
  } catch (error) {
    return err(`${error instanceof Error ? error.message : String(error)} (see pi --help)`);
  }
  const { values, positionals } = parsed;
  const [first, ...rest] = positionals;
  const help = values.help === true || first === 'help';
  const named = first === 'help' ? rest[0] : first;
  const connection = {
    cwd: values.cwd ?? cwd,
    session: values.session,
    socket: values.socket,
    url: values.url,
    dataDir: values['data-dir'],
  };
  if (values.print !== undefined && (named === undefined || !isCommand(named))) {
    return printOptions(
      { command: undefined, help, json: values.json === true, operands: positionals, connection },
      values,
      stdinText,
    );
  }
  if (named !== undefined && !isCommand(named)) return err(`Unknown command "${named}" (see pi --help)`);
  const command = named;
  if (values.socket !== undefined && values.url !== undefined) return err('Give --socket or --url, not both');
  if ((values.socket ?? values.url) !== undefined && values.session !== undefined) {
    return err('--session finds a session by id; with --socket or --url, leave it out');
  }
  const operands = first === 'help' ? [] : rest;
  const base = { command, help, json: values.json === true, operands, connection };
  const printOnly = (['no-session', 'model', 'mode', 'allow-tools'] as const).find(
    (flag) => values[flag] !== undefined,
  );
  if (values.print !== undefined) return printOptions(base, values, stdinText);
  if (values.mode === 'rpc') return rpcOptions(base, values);
  if (printOnly !== undefined) return err(`--${printOnly} goes with -p "prompt"`);
  if (command === 'sessions') return sessionsOptions(base, values);
  if (values.title !== undefined) return err('--title goes with pi sessions create');
  if (values.all !== undefined) return err('--all goes with pi sessions list');
  if (command !== undefined && !help) {
    const checked = checkArity(operands, OPERANDS[command], command);
    if (checked !== undefined) return err(checked);
  }
  return ok(base);
}

/** `pi -p "prompt" [--no-session] [--model p/id[:thinking]] [--mode text|json] [--allow-tools]`; piped text follows. */
function printOptions(
  base: CliOptions,
  values: {
    print?: string;
    'no-session'?: boolean;
    model?: string;
    mode?: string;
    'allow-tools'?: boolean;
    session?: string;
    socket?: string;
    url?: string;
  },
  stdinText: string | undefined,
): Result<CliOptions, string> {
  if (base.command !== undefined) return err(`-p runs one prompt; it does not go with pi ${base.command}`);
  if (base.operands.length > 0) return err('-p takes the prompt as its value: pi -p "prompt" (quote it)');
  if ((values.session ?? values.socket ?? values.url) !== undefined) {
    return err('-p uses the session of the directory (--cwd); --session, --socket and --url do not apply');
  }
  const mode = values.mode ?? 'text';
  if (mode !== 'text' && mode !== 'json') return err(`--mode is text or json, got "${mode}"`);
  const piped = stdinText?.trim() ?? '';
  const prompt = piped === '' ? (values.print ?? '') : `${values.print ?? ''}\n\n${piped}`;
  if (prompt.trim() === '') return err('-p needs a prompt: pi -p "what does this project do?"');
  return ok({
    ...base,
    command: 'print',
    print: {
      prompt,
      noSession: values['no-session'] === true,
      model: values.model,
      mode,
      allowTools: values['allow-tools'] === true,
    },
  });
}

/** `pi --mode rpc [--no-session] [--allow-tools]`, on the session of the directory (`--cwd`, `--data-dir`). */
function rpcOptions(
  base: CliOptions,
  values: {
    'no-session'?: boolean;
    'allow-tools'?: boolean;
    model?: string;
    session?: string;
    socket?: string;
    url?: string;
  },
): Result<CliOptions, string> {
  if (base.command !== undefined) return err(`--mode rpc is a mode of its own; it does not go with pi ${base.command}`);
  if ((values.session ?? values.socket ?? values.url) !== undefined) {
    return err('--mode rpc uses the session of the directory (--cwd); --session, --socket and --url do not apply');
  }
  if (values.model !== undefined) return err('--model goes with -p; in --mode rpc, call models.select');
  const rpc = { noSession: values['no-session'] === true, allowTools: values['allow-tools'] === true };
  return ok({ ...base, command: 'rpc', rpc });
}

/** `pi sessions [list | create | rm <id> | stop <id>]`: the action, its operands and the flags that go with it. */
function sessionsOptions(
  base: CliOptions,
  values: { cwd?: string; session?: string; socket?: string; url?: string; title?: string; all?: boolean },
): Result<CliOptions, string> {
  const [action = 'list', ...operands] = base.operands;
  if (!isSessionsAction(action)) {
    if (base.help) return ok({ ...base, operands: [], sessions: { action: 'list', title: undefined, all: false } });
    return err(`Unknown sessions command "${action}": use list, create, rm or stop (see pi sessions --help)`);
  }
  const sessions = { action, title: values.title, all: values.all === true };
  if (base.help) return ok({ ...base, operands, sessions });
  if ((values.session ?? values.socket ?? values.url) !== undefined) {
    return err('pi sessions talks to the coordinator: --session, --socket and --url do not apply');
  }
  if (values.title !== undefined && action !== 'create') return err('--title goes with pi sessions create');
  if (sessions.all && action !== 'list') return err('--all goes with pi sessions list');
  if (sessions.all && values.cwd !== undefined) return err('Give --cwd or --all, not both');
  const checked = checkArity(operands, SESSIONS_OPERANDS[action], 'sessions');
  return checked === undefined ? ok({ ...base, operands, sessions }) : err(checked);
}

function checkArity(
  operands: readonly string[],
  { min, max, usage }: Arity,
  command: Exclude<Command, 'print'>,
): string | undefined {
  if (operands.length >= min && operands.length <= max) return undefined;
  return `Usage: ${usage} (see pi ${command} --help)`;
}

function isCommand(name: string): name is (typeof COMMANDS)[number] {
  return (COMMANDS as readonly string[]).includes(name);
}

function isSessionsAction(name: string): name is SessionsAction {
  return (SESSIONS_ACTIONS as readonly string[]).includes(name);
}
