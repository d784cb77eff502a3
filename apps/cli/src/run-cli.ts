import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { connect, type ClientBehaviour } from '@pi/client';
import { toRemoteError } from '@pi/remote';
import type { CliOptions, Command } from './cli-options';
import { callCommand } from './commands/call';
import { printCommand } from './commands/print';
import { servicesCommand } from './commands/services';
import { sessionsCommand } from './commands/sessions';
import { coordinatorOnlyStatus, statusCommand } from './commands/status';
import { watchCommand } from './commands/watch';
import { connectOptionsOf } from './connection';
import { rpcModeCommand } from './rpc-mode/rpc-mode';
import { coordinatorStatus } from './coordinator-status';
import { EXIT } from './exit-codes';
import { reportError, type Output } from './output';
import { usageOf } from './usage';

export interface CliEnvironment {
  readonly io: Output;
  readonly env: NodeJS.ProcessEnv;
  /** Aborted on Ctrl-C or SIGTERM: cancels a call, ends a watch. */
  readonly interrupted: AbortSignal;
  /** What `--mode rpc` reads its commands from (stdin). */
  readonly input?: AsyncIterable<Uint8Array | string>;
}

/** Only a watch outlives a dropped connection; one-shot commands fail at once instead of waiting to reconnect. */
const BEHAVIOUR: Record<Exclude<Command, 'sessions' | 'print' | 'rpc'>, ClientBehaviour> = {
  services: { reconnect: false },
  call: { reconnect: false },
  watch: {},
  status: { reconnect: false },
};

/**
 * Runs one parsed command line: help, or connect, run the command, close. Returns the exit code; every failure is
 * reported with its stable code. `pi sessions` talks to the coordinator instead of a session.
 */
export async function runCli(options: CliOptions, { io, env, interrupted, input }: CliEnvironment): Promise<number> {
  if (options.help) {
    io.out(usageOf(options.command).trimEnd());
    return EXIT.ok;
  }
  const command = options.command;
  if (command === undefined) {
    io.err(usageOf(undefined).trimEnd());
    return EXIT.usage;
  }
  if (command === 'print') {
    // The parser sets the flags whenever it names this command.
    const flags = options.print ?? { prompt: '', noSession: false, model: undefined, mode: 'text', allowTools: false };
    return printCommand(
      { flags, cwd: options.connection.cwd, dataDir: options.connection.dataDir },
      env,
      io,
      interrupted,
    );
  }
  if (command === 'rpc') {
    const flags = options.rpc ?? { noSession: false, allowTools: false };
    const where = { cwd: options.connection.cwd, dataDir: options.connection.dataDir };
    return rpcModeCommand({ ...flags, ...where }, input ?? Readable.from([]), env, io, interrupted);
  }
  if (command === 'sessions') {
    const flags = options.sessions ?? { action: 'list', title: undefined, all: false };
    return sessionsCommand({ ...options, flags }, env, io, interrupted);
  }
  const connectOptions = connectOptionsOf(options.connection, env, BEHAVIOUR[command]);
  if (connectOptions.isErr()) {
    io.err(`pi: ${connectOptions.error}`);
    return EXIT.usage;
  }
  const connected = await connect(connectOptions.value);
  // A session found through its connection file is on this machine: `pi status` reports its coordinator too.
  const discovered = options.connection.socket === undefined && options.connection.url === undefined;
  const found = connected.isOk() ? connected.value.session : null;
  const coordinator =
    command === 'status' && discovered
      ? await coordinatorStatus(options.connection.dataDir, env, found?.cwd ?? resolve(options.connection.cwd))
      : undefined;
  if (connected.isErr()) {
    if (coordinator !== undefined) coordinatorOnlyStatus(coordinator, options.json, io);
    return reportError(io, connected.error, options.json);
  }
  const client = connected.value;
  try {
    switch (command) {
      case 'services':
        return await servicesCommand(client, options.operands, options.json, io);
      case 'call':
        return await callCommand(client, options.operands, options.json, io, interrupted);
      case 'watch':
        return await watchCommand(client, options.operands[0] ?? '', options.json, io, interrupted);
      case 'status':
        return await statusCommand(client, coordinator, options.json, io);
    }
  } catch (error) {
    return reportError(io, toRemoteError(error), options.json);
  } finally {
    client.close();
  }
}
