import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';

export interface ProgramOptions {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
}

/** A program that ran to its end: its exit code and all it printed. */
export interface ProgramRun {
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
  const exited = new Promise<ProgramExit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
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
    program.child.once('close', (code) => resolve({ code, stdout: program.stdout(), stderr: program.stderr() })),
  );
}
