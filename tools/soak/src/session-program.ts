import { fileURLToPath } from 'node:url';
import { connectionFilePath, readConnectionFile } from '@pi/connection-files';
import { startProgram, type ProgramExit, type RunningProgram } from '@pi/test-support';
import type { SoakHome } from './soak-home';
import { waitFor } from './waiting';

export const SESSION_BIN = fileURLToPath(new URL('../../../apps/session/bin/pi-session.mjs', import.meta.url));

/** Real node + tsx starts on a shared two-core machine: generous. */
const START_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 30_000;

/** What a client needs to reach a running session, from its connection file. */
export interface SessionAddress {
  readonly sessionId: string;
  readonly pid: number;
  readonly socketPath: string;
  readonly token: string;
}

/** A `pi-session` started by hand in a soak home, as a user runs it. */
export interface SessionProgram extends SessionAddress {
  readonly program: RunningProgram;
  /** SIGTERM, then the exit (SIGKILL if it does not stop in time). */
  stop(): Promise<ProgramExit>;
}

const LISTENING = /^pi-session (\S+): listening on /m;

/** `node apps/session/bin/pi-session.mjs --cwd <project> [args]`; resolves once its connection file is written. */
export async function startSessionProgram(
  home: SoakHome,
  cwd: string,
  args: readonly string[] = [],
): Promise<SessionProgram> {
  const program = startProgram(SESSION_BIN, ['--cwd', cwd, ...args], { cwd: home.root, env: home.env });
  let exited: ProgramExit | undefined;
  void program.exited.then((exit) => (exited = exit));
  await waitFor(
    'pi-session did not start',
    () => {
      if (exited !== undefined) throw new Error(`pi-session exited (${exited.code}): ${program.output().trim()}`);
      return LISTENING.test(program.stdout());
    },
    START_TIMEOUT_MS,
  );
  const sessionId = LISTENING.exec(program.stdout())?.[1] ?? '';
  const address = await readSessionAddress(home, sessionId);
  return {
    ...address,
    program,
    async stop() {
      if (exited !== undefined) return exited;
      program.child.kill('SIGTERM');
      const timer = setTimeout(() => program.child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      const exit = await program.exited;
      clearTimeout(timer);
      return exit;
    },
  };
}

/** A running session's address, from the connection file it wrote. */
export async function readSessionAddress(home: SoakHome, sessionId: string): Promise<SessionAddress> {
  const info = await readConnectionFile(connectionFilePath(home.directories.dataDir, sessionId));
  if (info.isErr()) throw new Error(`No connection file for ${sessionId}: ${info.error}`);
  return { sessionId, pid: info.value.pid, socketPath: info.value.socketPath, token: info.value.token };
}
