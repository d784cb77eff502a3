import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'pi-session.mjs');

/** Process tests wait for a real `node` + tsx start: generous, and never asserted on. */
export const PROCESS_TEST_TIMEOUT_MS = 60_000;

/**
 * A private, short temporary home for pi-session runs: data, config, project and the runtime directory
 * (XDG_RUNTIME_DIR), which holds the sockets and must keep their paths under ~100 bytes.
 */
export interface SessionSandbox {
  readonly root: string;
  readonly dataDir: string;
  readonly configDir: string;
  readonly cwd: string;
  readonly runtimeDir: string;
  /** The standard flags pointing at this sandbox. */
  readonly flags: string[];
  remove(): Promise<void>;
}

export async function createSandbox(): Promise<SessionSandbox> {
  const root = await mkdtemp(join(tmpdir(), 'pis-'));
  const sandbox = {
    root,
    dataDir: join(root, 'data'),
    configDir: join(root, 'config'),
    cwd: join(root, 'project'),
    runtimeDir: join(root, 'run'),
  };
  await mkdir(sandbox.cwd);
  await mkdir(sandbox.runtimeDir, { mode: 0o700 });
  return {
    ...sandbox,
    flags: ['--data-dir', sandbox.dataDir, '--config-dir', sandbox.configDir, '--cwd', sandbox.cwd],
    remove: () => rm(root, { recursive: true, force: true }),
  };
}

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** One pi-session process with everything it wrote. */
export interface SessionProcess {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  readonly exited: Promise<Exit>;
  /** Resolves with the "listening on" line; rejects if the process exits first. */
  listening(): Promise<ListeningLine>;
  /** Sends a signal if it still runs, and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<Exit>;
}

export interface ListeningLine {
  readonly sessionId: string;
  readonly socketPath: string;
  readonly url: string | null;
  readonly connectionFile: string;
}

const LISTENING = /^pi-session (\S+): listening on (\S+)(?: and (\S+))? \(connection file: (\S+)\)$/m;

export function runPiSession(
  sandbox: SessionSandbox | null,
  args: readonly string[],
  extraEnv: NodeJS.ProcessEnv = {},
): SessionProcess {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extraEnv };
  if (sandbox !== null) {
    env['XDG_RUNTIME_DIR'] = sandbox.runtimeDir;
    env['XDG_DATA_HOME'] = join(sandbox.root, 'xdg-data');
    env['XDG_CONFIG_HOME'] = join(sandbox.root, 'xdg-config');
  }
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<Exit>((resolveExit) =>
    child.once('exit', (code, signal) => resolveExit({ code, signal })),
  );
  const listening = new Promise<ListeningLine>((resolveLine, reject) => {
    const check = () => {
      const match = LISTENING.exec(stdout);
      if (match === null) return;
      child.stdout?.off('data', check);
      resolveLine({
        sessionId: match[1] ?? '',
        socketPath: match[2] ?? '',
        url: match[3] ?? null,
        connectionFile: match[4] ?? '',
      });
    };
    child.stdout?.on('data', check);
    void exited.then((exit) =>
      reject(new Error(`pi-session exited (${exit.code ?? exit.signal}) before listening: ${stderr.trim()}`)),
    );
  });
  // A test that only checks a failing start never asks for the line; its rejection is expected then.
  listening.catch(() => undefined);
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    listening: () => listening,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** What the connection file says: the client's way in. */
export interface ConnectionFile {
  readonly sessionId: string;
  readonly socketPath: string;
  readonly url: string | null;
  readonly token: string;
  readonly pid: number;
}

export async function readConnectionFile(path: string): Promise<ConnectionFile> {
  return JSON.parse(await readFile(path, 'utf8')) as ConnectionFile;
}

/** The session file's lines after its header, as parsed JSON. */
export async function readSessionEntries(dataDir: string, sessionId: string): Promise<Array<Record<string, unknown>>> {
  const text = await readFile(join(dataDir, 'sessions', `${sessionId}.jsonl`), 'utf8');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .slice(1)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
