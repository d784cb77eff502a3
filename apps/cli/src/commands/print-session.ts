import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { connect, type PiClient } from '@pi/client';
import { findPiProgram, piDirectories } from '@pi/connection-files';
import { RemoteError } from '@pi/remote';
import { err, ok, type Result } from 'neverthrow';

/** A session `pi -p` talks to, and how to let go of it when done. */
export interface PrintSession {
  readonly client: PiClient;
  close(): Promise<void>;
}

export interface PrintSessionOptions {
  readonly cwd: string;
  readonly dataDir: string | undefined;
  /** `--no-session`: a session of its own in a temporary data directory, removed afterwards. */
  readonly ephemeral: boolean;
}

const LISTENING = /^pi-session (\S+): listening on /m;
/** How long a session started for one prompt may take to listen. */
const START_TIMEOUT_MS = 30_000;

/**
 * The running session of the directory; when none runs (or `--no-session`), a `pi-session` started for this
 * prompt: on the user's data directory (a durable session the TUI can resume later) or, ephemeral, on a temporary
 * one. Either started one is stopped when the prompt is done.
 */
export async function openPrintSession(
  options: PrintSessionOptions,
  env: NodeJS.ProcessEnv,
): Promise<Result<PrintSession, RemoteError>> {
  const cwd = resolve(options.cwd);
  if (!options.ephemeral) {
    const running = await connect({ cwd, dataDir: options.dataDir, reconnect: false });
    if (running.isOk()) return ok({ client: running.value, close: async () => running.value.close() });
    if (running.error.code !== 'unavailable') return err(running.error);
  }
  const program = await findPiProgram('pi-session', import.meta.url, env);
  if (program === undefined) {
    // Neither the packed `pi` (it carries pi-session beside it) nor a checkout's gets here: a `pi` copied out alone.
    const start = `node <pi checkout>/apps/session/bin/pi-session.mjs --cwd ${cwd}`;
    return err(
      new RemoteError(
        'unavailable',
        `No session is running in ${cwd}, and pi-session was not found beside pi or on PATH: start one there (${start}) or put pi-session on PATH`,
      ),
    );
  }
  const scratch = options.ephemeral ? await mkdtemp(join(tmpdir(), 'pi-print-')) : undefined;
  const dataDir = scratch ?? piDirectories(env, { dataDir: options.dataDir }).dataDir;
  // Its stdin is a pipe only this process holds: if `pi` is killed, the session sees the end of it and stops.
  const child = spawn(process.execPath, [program, '--cwd', cwd, '--data-dir', dataDir, '--stop-with-stdin'], {
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<void>((settle) => child.once('exit', () => settle()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
  };
  const sessionId = await new Promise<string | undefined>((settle) => {
    const timer = setTimeout(() => settle(undefined), START_TIMEOUT_MS);
    const check = () => {
      const match = LISTENING.exec(output);
      if (match === null) return;
      clearTimeout(timer);
      settle(match[1]);
    };
    child.stdout?.on('data', check);
    void exited.then(() => {
      clearTimeout(timer);
      settle(undefined);
    });
  });
  if (sessionId === undefined) {
    await stop();
    const why = output.trim().split('\n').at(-1) ?? 'no output';
    return err(new RemoteError('unavailable', `pi-session did not start: ${why}`));
  }
  const connected = await connect({ session: sessionId, dataDir, reconnect: false });
  if (connected.isErr()) {
    await stop();
    return err(connected.error);
  }
  return ok({
    client: connected.value,
    close: async () => {
      connected.value.close();
      await stop();
    },
  });
}
