import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';

export interface ProgramOptions {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
}

/** A program that ran to its end: its exit code and all it printed. */
export interface ProgramRun {
  /** Null when it ended by a signal, or never started (then `stderr` says why). */
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface ProgramExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** A program still running: what it printed so far, and its exit. */
export interface RunningProgram {
  readonly child: ChildProcessByStdio<null, Readable, Readable>;
  stdout(): string;
  stderr(): string;
  /** Stdout and stderr together, in the order they arrived. */
  output(): string;
  readonly exited: Promise<ProgramExit>;
}

/** Starts a program's bin (a `.mjs` path: test support imports no app) with this node, stdin closed. */
export function startProgram(bin: string, args: readonly string[], options: ProgramOptions): RunningProgram {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const printed = { stdout: '', stderr: '', output: '' };
  for (const stream of ['stdout', 'stderr'] as const) {
    child[stream].setEncoding('utf8').on('data', (chunk: string) => {
      printed[stream] += chunk;
      printed.output += chunk;
    });
  }
  const exited = new Promise<ProgramExit>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    // A program that cannot start (its folder missing, node not executable) gets 'error' and never 'exit': said on
    // its stderr, as a shell would, instead of an unhandled 'error' ending the test run or a wait that never ends.
    // (Later errors, a signal that could not be sent, are said there too.)
    child.on('error', (error) => {
      const started = child.pid !== undefined;
      const said = started ? `${error.message}\n` : `Cannot start ${bin} in ${options.cwd}: ${error.message}\n`;
      printed.stderr += said;
      printed.output += said;
      if (!started) resolve({ code: null, signal: null });
    });
  });
  return {
    child,
    stdout: () => printed.stdout,
    stderr: () => printed.stderr,
    output: () => printed.output,
    exited,
  };
}

/** Runs a program's bin to its end (its output closed too), as a user runs it from `cwd`. */
export function runProgram(bin: string, args: readonly string[], options: ProgramOptions): Promise<ProgramRun> {
  const program = startProgram(bin, args, options);
  return new Promise((resolve) =>
    program.child.once('close', (code) =>
      // One that never started closes with a negative errno for a code: it has none.
      resolve({
        code: program.child.pid === undefined ? null : code,
        stdout: program.stdout(),
        stderr: program.stderr(),
      }),
    ),
  );
}
