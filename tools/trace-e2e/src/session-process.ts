import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createPiSandbox, startProgram } from '@pi/test-support';

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
  const sandbox = await createPiSandbox({ prefix: 'pit-', folders: ['project'], env });
  const cwd = sandbox.folders.project;
  const program = startProgram(PI_SESSION_BIN, ['--cwd', cwd], { cwd, env: sandbox.env });
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      const { child } = program;
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await program.exited;
      await sandbox.remove();
    })());
  const listening = await Promise.race([
    new Promise<boolean>((resolve) => {
      const check = () => / listening on /.test(program.stdout()) && resolve(true);
      program.child.stdout.on('data', check);
    }),
    program.exited.then(() => false),
  ]);
  if (!listening) {
    await stop();
    throw new Error(`pi-session exited before listening:\n${program.stderr()}`);
  }
  return {
    cwd,
    dataDir: sandbox.directories.dataDir,
    stderr: program.stderr,
    stop,
    [Symbol.asyncDispose]: stop,
  };
}
