import { spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The `pi` CLI's bin (apps/cli), run as a user runs it. */
export const PI_BIN = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'cli', 'bin', 'pi.mjs');

export interface PiRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `pi` to its end. */
export function runPi(
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<PiRun> {
  return startPi(args, options).done;
}

/** A running `pi` (for `pi watch`): what it printed so far, and a way to end it. */
export interface PiProcess {
  stdout(): string;
  stderr(): string;
  signal(signal: NodeJS.Signals): void;
  readonly done: Promise<PiRun>;
}

export function startPi(args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): PiProcess {
  const child = spawn(process.execPath, [PI_BIN, ...args], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const done = new Promise<PiRun>((resolveRun) => child.once('close', (code) => resolveRun({ code, stdout, stderr })));
  return {
    stdout: () => stdout,
    stderr: () => stderr,
    signal: (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
    done,
  };
}
