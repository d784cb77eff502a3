import { err, ok, type Result } from 'neverthrow';
import {
  connectionFilePath,
  coordinatorFiles,
  findPiProgram,
  isRunning,
  readConnectionFile,
  readCoordinatorConnection,
  workspaceIdOf,
  type CoordinatorConnection,
  type PiDirectories,
} from '@pi/connection-files';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { SessionDirectory, type SessionDirectoryService, type SessionRecordSummary } from '@pi/session-directory';
import { VERSION_MISMATCH, createRpcClient, isSocketAnswering, webSocketFactory } from '@pi/transport-trpc';
import { runCoordinatorStart, type EarlyCoordinatorStart } from './coordinator-start';

const READY_WAIT_MS = 20_000;
/** How long a resume waits for the coordinator to hear that the session's process ended. */
const CLOSED_WAIT_MS = 10_000;

export interface CoordinatorLaunch {
  /** The `import.meta.url` of pi-tui's entry: the bundled pi-coordinator is found beside it. */
  readonly from: string;
  /** Told each step as it begins ("Starting the coordinator"). */
  readonly progress: (step: string) => void;
  /** The `pi-coordinator start` the entry began before this module loaded, if it began one (`startCoordinatorEarly`). */
  readonly early?: Promise<EarlyCoordinatorStart | undefined>;
}

/**
 * What `npm start` (pi-tui --start) does before it attaches: makes sure the user's coordinator runs (starting it in
 * the background), then opens the session of the directory through it — the running one, else the most recent
 * one resumed, else a new one — and resolves with its id once the session can be attached to.
 */
export async function openSessionThroughCoordinator(
  cwd: string,
  directories: PiDirectories,
  manifest: string | undefined,
  env: NodeJS.ProcessEnv,
  launch: CoordinatorLaunch,
): Promise<Result<string, string>> {
  const coordinator = await ensureCoordinator(directories, manifest, env, launch);
  if (coordinator.isErr()) return err(coordinator.error);
  launch.progress('Opening the session of this directory');
  return throughDirectory(coordinator.value, directories.dataDir, async (directory) => {
    const workspaceId = workspaceIdOf(cwd);
    const mine = directory.state.value.sessions
      .filter((session) => session.workspaceId === workspaceId && session.cwd === cwd)
      .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
    const running = mine.find((session) => session.status !== 'closed');
    return (
      running ??
      (mine[0] === undefined
        ? await directory.create({ workspaceId, cwd }, BACKGROUND_CONTEXT)
        : await directory.resume(mine[0].sessionId, BACKGROUND_CONTEXT))
    );
  });
}

/**
 * Starts a session again whose process ended under an attached TUI (a crash, a kill), through the coordinator that
 * runs now, and resolves once it can be attached to. It waits for the coordinator to record the session closed (it
 * hears of the exit on its own), and starts nothing when no coordinator runs (`pi-coordinator stop` ends the
 * sessions on purpose) or the record was removed.
 */
export async function resumeEndedSession(
  sessionId: string,
  directories: PiDirectories,
): Promise<Result<string, string>> {
  const coordinator = await readCoordinatorConnection(coordinatorFiles(directories).connectionFile);
  if (coordinator.isErr() || !isRunning(coordinator.value.pid)) return err('No coordinator runs');
  return throughDirectory(coordinator.value, directories.dataDir, async (directory) => {
    const status = () => directory.state.value.sessions.find((session) => session.sessionId === sessionId)?.status;
    const deadline = Date.now() + CLOSED_WAIT_MS;
    while (status() !== undefined && status() !== 'closed' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (status() === undefined) throw new Error(`the session ${sessionId} was removed`);
    return directory.resume(sessionId, BACKGROUND_CONTEXT);
  });
}

/** Runs `choose` against the coordinator's session directory, then waits until the chosen session can be attached. */
async function throughDirectory(
  coordinator: CoordinatorConnection,
  dataDir: string,
  choose: (directory: SessionDirectoryService) => Promise<SessionRecordSummary>,
): Promise<Result<string, string>> {
  const client = createRpcClient({
    socketFactory: webSocketFactory({ socketPath: coordinator.socketPath }),
    connectionParams: { token: coordinator.token },
    reconnect: false,
  });
  try {
    const chosen = await choose(await client.use(SessionDirectory));
    const ready = await sessionReady(dataDir, chosen.sessionId);
    return ready ? ok(chosen.sessionId) : err(`The session ${chosen.sessionId} did not become ready`);
  } catch (error) {
    // A coordinator daemon that outlived an upgrade: say which, and how to end it.
    if ((error as { code?: unknown } | null)?.code === VERSION_MISMATCH)
      return err(
        `The coordinator running at ${coordinator.socketPath} is another version (${(error as Error).message}); stop it with \`pi-coordinator stop\` and start pi again`,
      );
    return err(`The coordinator could not open a session: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    client.close();
  }
}

async function ensureCoordinator(
  directories: PiDirectories,
  manifest: string | undefined,
  env: NodeJS.ProcessEnv,
  { from, progress, early }: CoordinatorLaunch,
): Promise<Result<CoordinatorConnection, string>> {
  const files = coordinatorFiles(directories);
  const running = await readCoordinatorConnection(files.connectionFile);
  if (running.isOk() && isRunning(running.value.pid) && (await isSocketAnswering(running.value.socketPath))) {
    return ok(running.value);
  }
  // The entry's start, when it began one (no coordinator held the lock then); else one begins here.
  const begun = await early;
  let outcome;
  if (begun !== undefined) {
    progress('Starting the coordinator');
    outcome = await begun.outcome;
  } else {
    const program = await findPiProgram('pi-coordinator', from, env);
    if (program === undefined) return err('Cannot find pi-coordinator to start the coordinator (install pi)');
    progress('Starting the coordinator');
    outcome = await runCoordinatorStart(program, directories, manifest, env);
  }
  if (outcome.code !== 0) {
    const last = outcome.output.trim().split('\n').at(-1) ?? '';
    return err(`The coordinator did not start${last === '' ? '' : `: ${last.replace(/^pi-coordinator: /, '')}`}`);
  }
  const started = await readCoordinatorConnection(files.connectionFile);
  return started.isOk() ? ok(started.value) : err(started.error);
}

/** The session's connection file is written just after it connects upstream: wait for it (and its process). */
async function sessionReady(dataDir: string, sessionId: string): Promise<boolean> {
  const deadline = Date.now() + READY_WAIT_MS;
  while (Date.now() < deadline) {
    const info = await readConnectionFile(connectionFilePath(dataDir, sessionId));
    if (info.isOk() && isRunning(info.value.pid) && (await isSocketAnswering(info.value.socketPath))) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}
