import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

/** Busy loops running beside a measurement: a machine whose every CPU is taken by someone else. */
export interface CpuLoad {
  readonly pids: readonly number[];
  /** Kills every loop and resolves once each has exited. */
  stop(): Promise<void>;
}

/** Every load started and not yet stopped, killed if the bench exits on an error or a signal. */
const running = new Set<ChildProcess>();
let exitHookInstalled = false;

/**
 * Starts `processes` busy loops, one Node process each at the bench's own priority, and resolves once every one of
 * them is spinning (each says so on stdout before it enters its loop), so a measurement never starts on a machine
 * that is only about to be busy.
 */
export async function startCpuLoad(processes: number): Promise<CpuLoad> {
  installExitHook();
  const children = Array.from({ length: processes }, () => {
    const child = spawn(process.execPath, ['-e', 'process.stdout.write("spinning\\n"); for (;;) {}'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    running.add(child);
    return child;
  });
  const stop = async () => {
    await Promise.all(
      children.map(async (child) => {
        running.delete(child);
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = once(child, 'exit');
        child.kill('SIGKILL');
        await exited;
      }),
    );
  };
  try {
    await Promise.all(children.map(spinning));
  } catch (error) {
    await stop();
    throw error;
  }
  return { pids: children.map((child) => child.pid as number), stop };
}

function spinning(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    child.stdout?.once('data', () => resolve());
    child.once('error', reject);
    child.once('exit', (code, signal) => reject(new Error(`busy loop exited (${code ?? signal}) before spinning`)));
  });
}

/** Loops left running (the bench threw, or was interrupted) are killed on the way out; a signal is then re-raised. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  const killAll = () => {
    for (const child of running) child.kill('SIGKILL');
    running.clear();
  };
  process.once('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      killAll();
      process.kill(process.pid, signal);
    });
  }
}
