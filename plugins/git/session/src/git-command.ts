import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { err, ok, type Result } from 'neverthrow';
import { RecordSplitter, type RecordConsumer, type RecordSeparator } from './output-records';

/** Why a git command gave no usable output. */
export const GIT_COMMAND_FAILURES = {
  /** No git executable on the PATH of the environment git runs with. */
  git_missing: 'git_missing',
  /** The directory git was to run in does not exist. */
  no_directory: 'no_directory',
  /** git ran and exited non-zero; `stderr` says why. */
  exited: 'exited',
  timed_out: 'timed_out',
  aborted: 'aborted',
  /** The output did not have the expected form; git was stopped. */
  invalid_output: 'invalid_output',
  spawn_failed: 'spawn_failed',
} as const;
export type GitCommandFailureCode = (typeof GIT_COMMAND_FAILURES)[keyof typeof GIT_COMMAND_FAILURES];

export interface GitCommandFailure {
  readonly code: GitCommandFailureCode;
  readonly message: string;
  /** What git wrote to stderr, at most MAX_STDERR_BYTES (for `exited`; empty otherwise). */
  readonly stderr: string;
}

/** How git is run: which executable, in which directory, with which environment, for how long at most. */
export interface GitCommandSettings {
  readonly executable: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly timeoutMs: number;
}

export interface GitOutputHandling {
  readonly separator: RecordSeparator;
  readonly onRecord: RecordConsumer;
}

/** stderr kept for the error message; the rest is dropped. */
export const MAX_STDERR_BYTES = 4096;

/**
 * Settings that keep a status check read-only and predictable whatever the user's configuration: no optional
 * locks (status would otherwise rewrite the index, which the watcher would see as a change), no prompts, no
 * fsmonitor hook (a repository's config could name any program), messages untranslated so they can be read.
 */
const FIXED_ENV = { LC_ALL: 'C', GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' } as const;
const FIXED_CONFIG = ['-c', 'core.fsmonitor=false'] as const;

/**
 * Runs `git <args>` without a shell, stdin closed, feeding stdout record by record to `output.onRecord`.
 * Ends git (SIGKILL) on timeout, on abort and when the output is not what the consumer expects.
 */
export async function runGit(
  settings: GitCommandSettings,
  args: readonly string[],
  output: GitOutputHandling,
  signal?: AbortSignal,
): Promise<Result<void, GitCommandFailure>> {
  if (!(await isDirectory(settings.cwd))) return failure('no_directory', 'the directory does not exist');
  if (signal?.aborted === true) return failure('aborted', 'aborted');
  return new Promise((resolve) => {
    const child = spawn(settings.executable, [...FIXED_CONFIG, ...args], {
      cwd: settings.cwd,
      env: { ...settings.env, ...FIXED_ENV },
      stdio: ['ignore', 'pipe', 'pipe'],
      shell: false,
      windowsHide: true,
    });
    let ended: GitCommandFailure | undefined;
    const stop = (reason: GitCommandFailure) => {
      if (ended !== undefined) return;
      ended = reason;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(
      () => stop(failureOf('timed_out', `git ${args[0]} did not finish within ${settings.timeoutMs} ms`)),
      settings.timeoutMs,
    );
    const onAbort = () => stop(failureOf('aborted', 'aborted'));
    signal?.addEventListener('abort', onAbort, { once: true });

    const records = new RecordSplitter(output.separator, output.onRecord);
    child.stdout.on('data', (chunk: Buffer) => {
      if (ended !== undefined) return;
      const problem = records.push(chunk);
      if (problem !== undefined) stop(failureOf('invalid_output', problem));
    });
    const stderr: Buffer[] = [];
    let stderrBytes = 0;
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderrBytes >= MAX_STDERR_BYTES) return;
      stderr.push(chunk.subarray(0, MAX_STDERR_BYTES - stderrBytes));
      stderrBytes += Math.min(chunk.length, MAX_STDERR_BYTES - stderrBytes);
    });

    child.on('error', (error: NodeJS.ErrnoException) => {
      stop(
        error.code === 'ENOENT'
          ? failureOf('git_missing', `${settings.executable} was not found on PATH`)
          : failureOf('spawn_failed', `git could not be started (${error.code ?? 'unknown error'})`),
      );
    });
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      if (ended !== undefined) return resolve(err(ended));
      if (exitCode !== 0) {
        const text = Buffer.concat(stderr).toString('utf8');
        return resolve(err({ code: 'exited', message: `git ${args[0]} exited with ${exitCode}`, stderr: text }));
      }
      const problem = records.end();
      resolve(problem === undefined ? ok(undefined) : err(failureOf('invalid_output', problem)));
    });
  });
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

function failureOf(code: GitCommandFailureCode, message: string): GitCommandFailure {
  return { code, message, stderr: '' };
}

function failure(code: GitCommandFailureCode, message: string): Result<void, GitCommandFailure> {
  return err(failureOf(code, message));
}
