import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { BACKGROUND_CONTEXT, type Context } from '@pi/context';
import { workspaceIdOf } from '@pi/connection-files';
import { SessionDirectory, type SessionRecordSummary } from '@pi/session-directory';
import {
  createPiSandbox,
  killSandboxProcesses,
  sandboxClients,
  startProgram,
  type ProgramExit,
} from '@pi/test-support';
import type { RpcClient } from '@pi/transport-trpc';

const PI_COORDINATOR_BIN = join(
  dirname(createRequire(import.meta.url).resolve('@pi/coordinator/package.json')),
  'bin',
  'pi-coordinator.mjs',
);
const EXIT_WAIT_MS = 60_000;

/** A real `pi-coordinator run` in the foreground, in a temporary home (XDG data, config, runtime and HOME). */
export interface CoordinatorProcess {
  /** A project directory the sessions can work in. */
  readonly project: string;
  readonly dataDir: string;
  /** What it printed on stdout and stderr so far. */
  output(): string;
  /** As the local user (the token from coordinator.json): a new session in `project`, running once it resolves. */
  createSession(title: string, context?: Context): Promise<SessionRecordSummary>;
  /** A client of a session's own socket, as a presentation connects (socket path and token from its file). */
  connectToSession(sessionId: string): Promise<RpcClient>;
  /** SIGTERM (it stops its sessions first) and its exit; undefined when it has not exited a minute later. */
  stop(): Promise<ProgramExit | undefined>;
  /** Clients closed, stopped, SIGKILL to anything its files still name, the home removed. Idempotent. */
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Starts `pi-coordinator run` with the test's environment on top of a clean one (see `createPiSandbox`); resolves
 * once it listens.
 */
export async function startCoordinatorProcess(env: NodeJS.ProcessEnv): Promise<CoordinatorProcess> {
  const home = await createPiSandbox({ prefix: 'pitc-', folders: ['project'], env });
  const { project } = home.folders;
  const coordinator = startProgram(PI_COORDINATOR_BIN, ['run'], { cwd: home.root, env: home.env });
  const { child, exited } = coordinator;
  const clients = sandboxClients(home);
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    return withinLimit(exited);
  };
  let disposing: Promise<void> | undefined;
  const dispose = () =>
    (disposing ??= (async () => {
      clients.closeAll();
      await stop();
      await killSandboxProcesses(home, [child.pid]);
      await home.remove();
    })());

  const listening = await Promise.race([
    new Promise<boolean>((resolve) => {
      const check = () => / listening on /.test(coordinator.output()) && resolve(true);
      child.stdout.on('data', check);
      check();
    }),
    exited.then(() => false),
  ]);
  if (!listening) {
    await dispose();
    throw new Error(`pi-coordinator exited before listening:\n${coordinator.output()}`);
  }
  return {
    project,
    dataDir: home.directories.dataDir,
    output: coordinator.output,
    async createSession(title, context = BACKGROUND_CONTEXT) {
      const directory = await (await clients.coordinator()).use(SessionDirectory);
      return directory.create({ title, workspaceId: workspaceIdOf(project), cwd: project }, context);
    },
    connectToSession: (sessionId) => clients.session(sessionId),
    stop,
    [Symbol.asyncDispose]: dispose,
  };
}

function withinLimit<T>(work: Promise<T>): Promise<T | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), EXIT_WAIT_MS);
    void work.then((value) => {
      clearTimeout(timer);
      resolve(value);
    });
  });
}
