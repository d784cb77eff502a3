import { spawn, type ChildProcess } from 'node:child_process';
import { connectionFilePath, readConnectionFile, type ConnectionInfo } from '@pi/connection-files';
import { PI_SESSION_BIN } from './bins';
import type { Sandbox } from './sandbox';

/** A `pi-session` process in a sandbox, started by the test (not by the TUI). */
export interface SessionProcess {
  readonly pid: number;
  readonly sessionId: string;
  /** Its connection file, which the TUI reads (and reads again, for a new token, after a restart). */
  readonly connectionFile: string;
  readonly exited: Promise<void>;
  /** What it printed, for failure messages. */
  output(): string;
  /** Sends `signal` if it still runs, and waits for it to end. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

const LISTENING = /^pi-session (\S+): listening on /m;

/** Starts `pi-session` in the sandbox's project (`--session ID` reopens one) and resolves once it listens. */
export async function startSession(sandbox: Sandbox, args: readonly string[] = []): Promise<SessionProcess> {
  const child = spawn(process.execPath, [PI_SESSION_BIN, '--cwd', sandbox.cwd, ...args], {
    env: sandbox.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: string) => (output += chunk);
  child.stdout.setEncoding('utf8').on('data', keep);
  child.stderr.setEncoding('utf8').on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (signal: NodeJS.Signals = 'SIGKILL') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  const sessionId = await listeningSessionId(child, exited, () => output);
  if (sessionId === undefined) throw new Error(`pi-session did not start:\n${output}`);
  const connectionFile = connectionFilePath(sandbox.dataDir, sessionId);
  const info = await readSessionConnection(connectionFile);
  return { pid: info.pid, sessionId, connectionFile, exited, output: () => output, stop };
}

function listeningSessionId(
  child: ChildProcess,
  exited: Promise<void>,
  output: () => string,
): Promise<string | undefined> {
  return new Promise((resolve) => {
    const check = () => {
      const match = LISTENING.exec(output());
      if (match === null) return;
      child.stdout?.off('data', check);
      resolve(match[1]);
    };
    child.stdout?.on('data', check);
    void exited.then(() => resolve(undefined));
  });
}

/** The connection file's contents; throws with the reason when it is missing or malformed. */
export async function readSessionConnection(path: string): Promise<ConnectionInfo> {
  const info = await readConnectionFile(path);
  if (info.isErr()) throw new Error(info.error);
  return info.value;
}
