import { existsSync } from 'node:fs';
import { err, ok, type Result } from 'neverthrow';
import { endProcessGroup } from './process-group';
import { spawnWatched } from './watched-spawn';

/** The shell could not be started (no descriptors left, no shell, the working directory is gone). */
export interface SpawnFailure {
  readonly code: 'spawn_failed';
  readonly message: string;
}

/** How a command ended. */
export interface CommandEnd {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
  readonly aborted: boolean;
  /** The process group id (the shell's pid), null when nothing was started. */
  readonly pgid: number | null;
}

export interface RunCommandOptions {
  readonly command: string;
  readonly cwd: string;
  readonly timeoutMs: number;
  readonly killGraceMs: number;
  readonly signal?: AbortSignal | undefined;
  readonly onOutput: (chunk: Buffer) => void;
}

/** bash when the machine has it (the model writes bash), else the POSIX shell. */
const SHELL = existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh';

// How long to wait for the output pipes once the group is gone: a process that left the group (setsid) may hold
// them open forever, and its output is then not the command's.
const PIPE_DRAIN_MS = 200;

/**
 * Runs `command` with the shell in its own process group (detached), stdin closed, stdout and stderr to
 * `onOutput`. On timeout or abort the whole group is ended (SIGTERM, then SIGKILL after `killGraceMs`); when the
 * shell exits, whatever it left running in its group (`cmd &`) is ended the same way, so no process outlives the
 * call (one that moved to a group of its own with setsid is beyond reach, on purpose). Should this process end
 * first, in whatever way, the group's watcher kills the group (see `spawnWatched`). Resolves when the group is
 * gone; a shell that cannot be started is `spawn_failed`.
 */
export function runCommand(options: RunCommandOptions): Promise<Result<CommandEnd, SpawnFailure>> {
  if (options.signal?.aborted === true) {
    return Promise.resolve(ok({ exitCode: null, signal: null, timedOut: false, aborted: true, pgid: null }));
  }
  return new Promise((resolve) => {
    const watched = spawnWatched(SHELL, options.command, {
      cwd: options.cwd,
      env: { ...process.env, PAGER: 'cat', GIT_PAGER: 'cat' },
    });
    const { child } = watched;
    let stopReason: 'timeout' | 'abort' | null = null;
    let ending: Promise<unknown> | null = null;
    const endGroup = () => {
      // The watcher is released only once the group is gone: should this process die during the grace, it acts.
      if (ending === null && child.pid !== undefined) {
        ending = endProcessGroup(child.pid, options.killGraceMs).finally(() => watched.release());
      }
      return ending ?? Promise.resolve();
    };
    const stop = (reason: 'timeout' | 'abort') => {
      stopReason ??= reason;
      void endGroup();
    };
    const timer = setTimeout(() => stop('timeout'), options.timeoutMs);
    const onAbort = () => stop('abort');
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const closed = new Promise<void>((resolveClosed) => child.once('close', () => resolveClosed()));
    child.stdout.on('data', options.onOutput);
    child.stderr.on('data', options.onOutput);

    const settle = () => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    };
    child.once('error', (error) => {
      settle();
      void watched.release();
      const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
      resolve(err({ code: 'spawn_failed', message: `The shell could not be started: ${code}.` }));
    });
    child.once('exit', (exitCode, signal) => {
      settle();
      void (async () => {
        await endGroup();
        await Promise.race([closed, new Promise((wait) => setTimeout(wait, PIPE_DRAIN_MS))]);
        child.stdout.destroy();
        child.stderr.destroy();
        resolve(
          ok({
            exitCode,
            signal,
            timedOut: stopReason === 'timeout',
            aborted: stopReason === 'abort',
            pgid: child.pid ?? null,
          }),
        );
      })();
    });
  });
}
