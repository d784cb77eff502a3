import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const PI_SESSION_BIN = join(
  dirname(createRequire(import.meta.url).resolve('@pi/session/package.json')),
  'bin',
  'pi-session.mjs',
);

/** A real `pi-session` in a temporary home, started with the test's environment on top of a clean one. */
export interface SessionProcess {
  /** The project directory the session works in (a client finds the session through it and `dataDir`). */
  readonly cwd: string;
  readonly dataDir: string;
  /** What it printed on stderr so far. */
  stderr(): string;
  /** SIGTERM, the exit, and the temporary home removed. Idempotent. */
  stop(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/** Starts `pi-session` with the built-in manifest and resolves once it listens; rejects if it exits first. */
export async function startSessionProcess(env: NodeJS.ProcessEnv): Promise<SessionProcess> {
  const root = await mkdtemp(join(tmpdir(), 'pit-'));
  const [cwd, dataDir, runtimeDir] = ['project', 'data', 'run'].map((name) => join(root, name)) as [
    string,
    string,
    string,
  ];
  await mkdir(cwd);
  await mkdir(runtimeDir, { mode: 0o700 });
  const args = ['--cwd', cwd, '--data-dir', dataDir, '--config-dir', join(root, 'config')];
  const child = spawn(process.execPath, [PI_SESSION_BIN, ...args], {
    env: { ...inheritedEnvironment(), XDG_RUNTIME_DIR: runtimeDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      await rm(root, { recursive: true, force: true });
    })());
  const listening = await Promise.race([
    new Promise<boolean>((resolve) => {
      const check = () => / listening on /.test(stdout) && resolve(true);
      child.stdout.on('data', check);
    }),
    exited.then(() => false),
  ]);
  if (!listening) {
    await stop();
    throw new Error(`pi-session exited before listening:\n${stderr}`);
  }
  return { cwd, dataDir, stderr: () => stderr, stop, [Symbol.asyncDispose]: stop };
}

/** The test's environment without its own OTEL_* settings or vitest's hooks, so only what a test sets applies. */
function inheritedEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(OTEL_|VITEST|NODE_OPTIONS$)/.test(key)));
}
