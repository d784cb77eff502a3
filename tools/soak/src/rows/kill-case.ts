import { setTimeout as sleep } from 'node:timers/promises';
import type { PiClient } from '@pi/client';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { isRunning } from '@pi/connection-files';
import {
  coordinatorCommand,
  coordinatorPid,
  sessionDiagnosis,
  startCoordinator,
  userDirectory,
  type UserDirectory,
} from '../coordinator-program';
import { startPrompter, promptText, type Prompter } from '../prompter';
import { entryIdsOnDisk } from '../session-file';
import { connectClient } from '../session-client';
import { readSessionAddress } from '../session-program';
import type { SoakHome } from '../soak-home';
import type { RowContext } from '../soak-row';
import { until, waitFor } from '../waiting';

export type KillTarget = 'session' | 'coordinator' | 'both';

/** What one kill -9 case ended with. */
export interface KillCaseResult {
  readonly target: KillTarget;
  readonly kills: number;
  /** Transcript entries the session announced before and after the kills. */
  readonly acknowledged: number;
  /** Of those, how many are not in the session file after recovery. */
  readonly lost: number;
  /** Runs after each recovery that completed: the session works again. */
  readonly recovered: number;
  /** Processes beyond one coordinator and one process per session, after recovery. */
  readonly duplicates: number;
  /** Session processes after recovery that no running record accounts for, plus anything left after `stop`. */
  readonly orphans: number;
  /** Kills after which the directory never listed the session closed. */
  readonly notShownClosed: number;
  /** Seconds from the kill to a completed run, per kill. */
  readonly recoverySeconds: readonly number[];
}

const PROCESS_WAIT_MS = 90_000;

/**
 * A coordinator-run session is prompted; mid-run, kill -9 hits the session, the coordinator or both; the user
 * recovers as a user would (`pi-coordinator start`, resume the session); a run must then complete, and every
 * entry the session announced must be on disk, with one process per program and none left over after `stop`.
 */
export async function runKillCase(context: RowContext, target: KillTarget, rounds: number): Promise<KillCaseResult> {
  const home = await context.home();
  await startCoordinator(home);
  let user = await userDirectory(home);
  const { sessionId } = await user.create(home.folders.project, `kill -9 ${target}`);
  const acknowledged = new Set<string>();
  const clients: PiClient[] = [];
  context.defer(() => clients.forEach((client) => client.close()));
  context.defer(() => user.close());
  const prompterOf = async (): Promise<Prompter> => {
    const address = await readSessionAddress(home, sessionId);
    const client = await connectClient(address).catch((error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`${reason} (pid ${address.pid}: ${sessionDiagnosis(home, sessionId)})`);
    });
    clients.push(client);
    return startPrompter(client);
  };
  const remember = (prompter: Prompter) => prompter.acknowledged.forEach((id) => acknowledged.add(id));

  let prompter = await prompterOf();
  let recovered = 0;
  let notShownClosed = 0;
  const recoverySeconds: number[] = [];
  for (let round = 1; round <= rounds; round++) {
    for (let warm = 0; warm < 2; warm++) await prompter.run(promptText(`round ${round} warm ${warm}`, 200));
    // A long run in flight: the kill lands while the session is writing it.
    const before = prompter.acknowledged.length;
    const inFlight = await prompter.prompt(promptText(`round ${round} in flight`, 3_000));
    await waitFor('the run in flight wrote nothing', () => prompter.acknowledged.length >= before + 2, 60_000);
    await sleep(50);
    const sessionPid = (await readSessionAddress(home, sessionId)).pid;
    const killedAt = performance.now();
    const killed = [
      ...(target === 'session' ? [] : [coordinatorPid(home)]),
      ...(target === 'coordinator' ? [] : [sessionPid]),
    ].filter((pid): pid is number => pid !== undefined);
    for (const pid of killed) process.kill(pid, 'SIGKILL');
    context.log(`${target}: killed ${killed.join(', ')} in round ${round}`);
    await waitFor('a killed process still runs', () => killed.every((pid) => !isRunning(pid)), PROCESS_WAIT_MS);
    user.close();

    if (target === 'coordinator') {
      // The session lives on: it finishes its run while the coordinator is away, and takes prompts.
      await prompter.settled(inFlight);
      await prompter.run(promptText(`round ${round} without a coordinator`, 100));
    }
    if (target !== 'session') await startCoordinator(home);
    user = await userDirectory(home);
    if (target === 'coordinator') {
      await waitFor(
        'the restarted coordinator did not take the session over',
        () => isListedRunning(user.directory.state.value.sessions, sessionId),
        PROCESS_WAIT_MS,
      );
    } else {
      remember(prompter);
      prompter.stop();
      // As a user does: the session list shows it closed, then they resume it. (Resumed before the coordinator has
      // seen the process end, the directory answers with the stale record and starts nothing.)
      const directory = user.directory;
      if (!(await until(() => statusOf(directory, sessionId) === 'closed', PROCESS_WAIT_MS))) notShownClosed++;
      await resume(directory, sessionId);
      prompter = await prompterOf();
    }
    const after = await prompter.run(promptText(`round ${round} after recovery`, 50), 60_000).catch(() => undefined);
    if (after?.outcome === 'completed') recovered++;
    recoverySeconds.push((performance.now() - killedAt) / 1000);
  }
  remember(prompter);

  const onDisk = entryIdsOnDisk(home, sessionId);
  const lost = [...acknowledged].filter((id) => !onDisk.has(id)).length;
  const running = new Set(
    user.directory.state.value.sessions.filter((s) => s.status !== 'closed').map((s) => s.sessionId),
  );
  const processes = home.processes();
  const coordinators = processes.filter((p) => p.program === 'pi-coordinator').length;
  const sessions = processes.filter((p) => p.program === 'pi-session');
  const perSession = new Map<string, number>();
  for (const p of sessions) perSession.set(p.sessionId ?? '?', (perSession.get(p.sessionId ?? '?') ?? 0) + 1);
  const duplicates =
    Math.max(0, coordinators - 1) + [...perSession.values()].reduce((sum, n) => sum + Math.max(0, n - 1), 0);
  const unaccounted = sessions.filter((p) => p.sessionId === undefined || !running.has(p.sessionId)).length;
  const left = await leftAfterStop(home);
  return {
    target,
    kills: rounds,
    acknowledged: acknowledged.size,
    lost,
    recovered,
    duplicates,
    orphans: unaccounted + left,
    notShownClosed,
    recoverySeconds,
  };
}

function statusOf(directory: UserDirectory['directory'], sessionId: string): string | undefined {
  return directory.state.value.sessions.find((s) => s.sessionId === sessionId)?.status;
}

function isListedRunning(sessions: readonly { sessionId: string; status: string }[], sessionId: string): boolean {
  return sessions.some((s) => s.sessionId === sessionId && s.status !== 'closed' && s.status !== 'starting');
}

/** Resumes the session through the directory, as `/sessions` does; the coordinator may need a moment to see it died. */
async function resume(
  directory: Awaited<ReturnType<typeof userDirectory>>['directory'],
  sessionId: string,
): Promise<void> {
  let last: unknown;
  const resumed = await until(
    async () => {
      try {
        await directory.resume(sessionId, BACKGROUND_CONTEXT);
        return true;
      } catch (error) {
        last = error;
        return false;
      }
    },
    PROCESS_WAIT_MS,
    500,
  );
  if (!resumed)
    throw new Error(`The session could not be resumed: ${last instanceof Error ? last.message : String(last)}`);
}

/** `pi-coordinator stop`, then the pi programs of the home still running: none may be. */
async function leftAfterStop(home: SoakHome): Promise<number> {
  await coordinatorCommand(home, 'stop');
  await until(() => home.processes().length === 0, 30_000);
  return home.processes().length;
}
