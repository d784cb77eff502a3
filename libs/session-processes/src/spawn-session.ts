import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync } from 'node:fs';
import { Writable } from 'node:stream';
import { upstreamHandoffSchema, type UpstreamHandoff } from '@pi/connection-files';
import { openSessionLog } from './session-log';
import type { SessionLaunch } from './tracked-process';

export interface SessionCommand {
  readonly file: string;
  readonly args: readonly string[];
}

/** The handoff the options produced, checked: valid, and for the session being launched. Throws otherwise. */
export function checkedHandoff(launch: SessionLaunch, handoff: unknown): UpstreamHandoff {
  const parsed = upstreamHandoffSchema.safeParse(handoff);
  if (!parsed.success) {
    // Field names only: the values include the credential.
    const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.') || '(root)'))].join(', ');
    throw new Error(`its upstream handoff is not valid (${fields})`);
  }
  if (parsed.data.sessionId !== launch.sessionId || parsed.data.workspaceId !== launch.workspaceId) {
    throw new Error(`its upstream handoff is for another session (${parsed.data.sessionId})`);
  }
  return parsed.data;
}

/**
 * Spawns one session process: detached (its own process group and session, so neither a terminal's Ctrl+C nor the
 * coordinator's death reaches it), stdout and stderr appended to its log, and fd 3 a pipe for the handoff. Throws
 * what `spawn` throws; a missing program or directory arrives later as the child's 'error' event, with no pid.
 */
export function spawnSession(
  launch: SessionLaunch,
  command: SessionCommand,
  env: NodeJS.ProcessEnv,
  logDir: string,
): { readonly child: ChildProcess; readonly logPath: string } {
  const log = openSessionLog(logDir, launch.sessionId);
  try {
    const child = spawn(command.file, [...command.args], {
      cwd: launch.cwd,
      env,
      detached: true,
      stdio: ['ignore', log.fd, log.fd, 'pipe'],
    });
    return { child, logPath: log.path };
  } finally {
    closeSync(log.fd); // the child has its own copy
  }
}

/** Writes the handoff down fd 3 once and closes the pipe, so the child reads to EOF. */
export function sendHandoff(child: ChildProcess, handoff: UpstreamHandoff): void {
  const pipe = child.stdio[3];
  if (!(pipe instanceof Writable)) return;
  pipe.on('error', () => undefined); // a child that exits without reading: its exit says what happened
  pipe.end(`${JSON.stringify(handoff)}\n`, () => pipe.destroy());
}

/** Closes fd 3 of a child that never ran. */
export function dropHandoffPipe(child: ChildProcess): void {
  const pipe = child.stdio[3];
  if (pipe !== null && pipe !== undefined) pipe.destroy();
}
