import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The session's event loop since the last reset. */
export interface LoopDelay {
  /** The longest a timer waited (monitorEventLoopDelay), and the 99th percentile: wall clock. */
  readonly maxMs: number;
  readonly p99Ms: number;
  /** The most CPU time the process used between two ticks of a 1 ms timer: its longest step, without the time it
   *  waited for a CPU on a busy machine. */
  readonly maxStepCpuMs: number;
}

/** A real `pi-session` process (the built-in manifest) with an event-loop delay probe preloaded. */
export interface SessionUnderTest {
  resetLoopDelay(): Promise<void>;
  loopDelay(): Promise<LoopDelay>;
  stop(): Promise<void>;
}

export interface SessionSpawnOptions {
  /** The workspace whose `apps/session` runs: this one, or another checkout for a before/after comparison. */
  readonly root: string;
  readonly project: string;
  readonly env: NodeJS.ProcessEnv;
  /** Where `--cpu-prof` writes the session's profile; no profile when absent. */
  readonly profileDir?: string;
}

const PROBE = fileURLToPath(new URL('./loop-delay-probe.mjs', import.meta.url));

export async function startSessionUnderTest(options: SessionSpawnOptions): Promise<SessionUnderTest> {
  const profile = options.profileDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`];
  const child = spawn(
    process.execPath,
    [...profile, '--import', PROBE, join(options.root, 'apps/session/bin/pi-session.mjs'), '--cwd', options.project],
    { cwd: options.project, env: options.env, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] },
  );
  await listening(child);
  const ask = <T>(type: string, answer: string) =>
    new Promise<T>((resolve) => {
      const onMessage = (message: { type: string }) => {
        if (message.type !== answer) return;
        child.off('message', onMessage);
        resolve(message as T);
      };
      child.on('message', onMessage);
      child.send({ type });
    });
  return {
    resetLoopDelay: () => ask<unknown>('reset', 'reset').then(() => undefined),
    loopDelay: () => ask<LoopDelay>('read', 'loop'),
    stop: () => stopProcess(child),
  };
}

function listening(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (!output.includes(': listening on ')) return;
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
      child.stdout?.resume();
      resolve();
    };
    const onExit = (code: number | null) =>
      reject(new Error(`pi-session exited (${code}) before listening: ${output}`));
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });
}

/** SIGTERM (the session stops cleanly and writes its profile), SIGKILL after 10 s. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
