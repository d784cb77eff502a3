import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Socket } from 'node:net';
import type { Readable } from 'node:stream';

/** What the session writes to the watcher once it has ended the group itself: let go, kill nothing. */
const RELEASE = 'done';

/**
 * The watcher: a subshell, left to init by the shell that starts it, holding the other end of a socket only the
 * session holds, and reading it. The release word means the session ended the group itself; end of file means
 * the session is gone (killed, crashed, exited: the kernel closed its end) and the watcher SIGKILLs the group
 * ($1). SIGPIPE and hang-ups must not end it first.
 */
const WATCHER_SCRIPT = [
  `( trap '' HUP INT PIPE`,
  `  IFS= read -r word <&3`,
  `  [ "$word" = ${RELEASE} ] || kill -s KILL -- "-$1" ) &`,
].join('\n');

/**
 * The group's leader, a POSIX shell ($1 the command's shell, $2 the command line, $3 the watcher script, $4
 * setsid(1) or empty). It starts the watcher in a session and process group of its own, and waits until it is
 * there: the session's SIGTERM to the command's group then leaves it watching, an empty group is simply gone, and
 * the watcher is no child the command could wait for. Then the leader becomes the command's shell with fd 3
 * closed: the command keeps the leader's pid (its exit status is the command's) and never holds the socket.
 * Without setsid(1) the watcher stays in the group: it still guards the running command, but ends with the
 * group's SIGTERM.
 */
const LEADER_SCRIPT = [
  `\${4:+"$4"} /bin/sh -c "$3" pi-bash-watcher "$$" </dev/null >/dev/null 2>&1`,
  `exec "$1" -c "$2" 3<&-`,
].join('\n');

/** setsid(1), from util-linux or busybox; null where there is none (macOS). */
const SETSID = ['/usr/bin/setsid', '/bin/setsid'].find((path) => existsSync(path)) ?? null;

export interface WatchedCommand {
  readonly child: ChildProcessByStdio<null, Readable, Readable>;
  /** Tells the watcher the group was ended on purpose and closes the socket; resolves once that is written. */
  release(): Promise<void>;
}

/**
 * Spawns `shell -c command` leading a process group of its own (detached, stdin closed, stdout and stderr piped),
 * watched by a process that kills the group should this process end first in any way — SIGKILL included. No
 * native code and no other process of pi is needed, so a session started by hand is covered too. It costs one
 * short-lived process (setsid, then a shell) and the watcher, a subshell blocked in read, per command.
 */
export function spawnWatched(
  shell: string,
  command: string,
  options: { readonly cwd: string; readonly env: NodeJS.ProcessEnv },
): WatchedCommand {
  const leaderArgs = [shell, command, WATCHER_SCRIPT, SETSID ?? ''];
  const child = spawn('/bin/sh', ['-c', LEADER_SCRIPT, 'pi-bash', ...leaderArgs], {
    cwd: options.cwd,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    env: options.env,
  }) as unknown as ChildProcessByStdio<null, Readable, Readable>;
  // Missing only when Node could not set up the child's descriptors at all (EMFILE): then nothing runs.
  const socket = (child.stdio[3] ?? null) as Socket | null;
  // The watcher may be gone already (a failed spawn, someone killed it): the write then fails, harmlessly.
  socket?.on('error', () => undefined);
  return {
    child,
    release: () =>
      new Promise<void>((resolve) => {
        if (socket === null || socket.destroyed) return resolve();
        socket.once('close', () => resolve());
        socket.end(`${RELEASE}\n`, () => socket.destroy());
      }),
  };
}
