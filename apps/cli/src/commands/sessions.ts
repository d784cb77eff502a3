import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { workspaceIdOf } from '@pi/connection-files';
import { BACKGROUND_CONTEXT, withAbortSignal } from '@pi/context';
import { toRemoteError } from '@pi/remote';
import type { SessionDirectoryService } from '@pi/session-directory';
import type { ConnectionFlags, SessionsFlags } from '../cli-options';
import { connectCoordinator } from '../coordinator';
import { EXIT } from '../exit-codes';
import { reportError, type Output } from '../output';
import { newestFirst, sessionTable } from '../session-table';

export interface SessionsRun {
  readonly flags: SessionsFlags;
  readonly operands: readonly string[];
  readonly connection: ConnectionFlags;
  readonly json: boolean;
}

/**
 * `pi sessions list | create | rm <id> | stop <id>`: the coordinator's session directory, reached through its connection
 * file with the local user's token. No coordinator is `unavailable` (exit 3); a refusal is the service's code.
 */
export async function sessionsCommand(
  run: SessionsRun,
  env: NodeJS.ProcessEnv,
  io: Output,
  interrupted: AbortSignal,
): Promise<number> {
  const cwd = resolve(run.connection.cwd);
  if (run.flags.action === 'create' && !(await isDirectory(cwd))) {
    io.err(`pi: not a directory: ${cwd} (see pi sessions --help)`);
    return EXIT.usage;
  }
  const connected = await connectCoordinator(run.connection.dataDir, env);
  if (connected.isErr()) return reportError(io, connected.error, run.json);
  const coordinator = connected.value;
  const context = withAbortSignal(interrupted, BACKGROUND_CONTEXT);
  try {
    switch (run.flags.action) {
      case 'list':
        return list(coordinator.directory, run.flags.all ? undefined : cwd, run.json, io);
      case 'create': {
        // Without --title the session's first prompt names it.
        const titled = run.flags.title === undefined ? {} : { title: run.flags.title };
        const session = await coordinator.directory.create(
          { ...titled, workspaceId: workspaceIdOf(cwd), cwd },
          context,
        );
        io.out(run.json ? JSON.stringify(session) : session.sessionId);
        return EXIT.ok;
      }
      case 'rm': {
        const sessionId = run.operands[0] ?? '';
        await coordinator.directory.remove(sessionId, context);
        io.out(run.json ? JSON.stringify({ removed: sessionId }) : `removed ${sessionId}`);
        return EXIT.ok;
      }
      case 'stop': {
        // Wherever it runs: a session on another host is asked over its connection to the coordinator.
        const session = await coordinator.directory.stop(run.operands[0] ?? '', context);
        io.out(run.json ? JSON.stringify(session) : `stopped ${session.sessionId}`);
        return EXIT.ok;
      }
    }
  } catch (error) {
    return reportError(io, toRemoteError(error), run.json);
  } finally {
    coordinator.close();
  }
}

/** The sessions of `cwd`'s workspace (every workspace when undefined), newest first. */
function list(directory: SessionDirectoryService, cwd: string | undefined, json: boolean, io: Output): number {
  const workspaceId = cwd === undefined ? undefined : workspaceIdOf(cwd);
  const sessions = newestFirst(
    directory.state.value.sessions.filter(
      (session) => workspaceId === undefined || session.workspaceId === workspaceId,
    ),
  );
  if (json) io.out(JSON.stringify(sessions));
  else if (sessions.length > 0) for (const line of sessionTable(sessions, cwd === undefined)) io.out(line);
  else io.out(cwd === undefined ? 'No sessions' : `No sessions in ${cwd} (pi sessions create starts one)`);
  return EXIT.ok;
}

async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() === true;
}
