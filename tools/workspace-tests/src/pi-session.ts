import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureEnvironment } from './run-tool';
import { workspaceRoot } from './workspace-root';

/** The real workspace's session app, run as users run it. */
const PI_SESSION_BIN = join(workspaceRoot, 'apps', 'session', 'bin', 'pi-session.mjs');

const LISTENING = /: listening on \S+.*\(connection file: (\S+)\)$/m;

export interface PiSessionExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A running `pi-session` and what its connection file says a client needs. */
export interface RunningPiSession {
  readonly socketPath: string;
  readonly token: string;
  /** SIGTERM, then the exit; the session's temporary home is removed. Idempotent. */
  stop(): Promise<PiSessionExit>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Starts the real `pi-session --manifest <manifest>` with its project, data, config and socket in a fresh
 * temporary folder, and resolves once it listens. A process that exits first, or stays silent for `timeoutMs`,
 * rejects with its output.
 */
export async function startPiSession(manifest: string, timeoutMs = 60_000): Promise<RunningPiSession> {
  const home = await mkdtemp(join(tmpdir(), 'pis-'));
  await mkdir(join(home, 'project'));
  const args = ['--manifest', manifest, '--cwd', join(home, 'project'), '--socket', join(home, 's.sock')];
  args.push('--data-dir', join(home, 'data'), '--config-dir', join(home, 'config'));
  const child = spawn(process.execPath, [PI_SESSION_BIN, ...args], {
    env: fixtureEnvironment(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<PiSessionExit>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  let stopping: Promise<PiSessionExit> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const exit = await exited;
      await rm(home, { recursive: true, force: true });
      return exit;
    })());
  try {
    const connectionFile = await listening(child.stdout, exited, timeoutMs);
    const { socketPath, token } = JSON.parse(await readFile(connectionFile, 'utf8')) as {
      socketPath: string;
      token: string;
    };
    return { socketPath, token, stop, [Symbol.asyncDispose]: async () => void (await stop()) };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The connection file named by the "listening on" line. */
function listening(output: NodeJS.ReadableStream, exited: Promise<PiSessionExit>, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`pi-session did not listen within ${timeoutMs} ms`)), timeoutMs);
    output.on('data', (chunk: string) => {
      seen += chunk;
      const match = LISTENING.exec(seen);
      if (match?.[1] === undefined) return;
      clearTimeout(timer);
      resolve(match[1]);
    });
    void exited.then((exit) => {
      clearTimeout(timer);
      reject(new Error(`pi-session exited (${exit.code ?? exit.signal}) before listening:\n${exit.stderr}`));
    });
  });
}
