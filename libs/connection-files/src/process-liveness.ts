import { hasEnded, readProcessStatSync } from './process-stat';

// Without a schema or a package: pi-tui's entry asks it before it loads zod (a subpath export).

/** Whether the process that wrote a connection file still runs (a crashed session leaves its file behind). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

/** A killed process its parent has not reaped yet still answers signal 0 but runs no more (Linux; false elsewhere). */
function isZombie(pid: number): boolean {
  const stat = readProcessStatSync(pid);
  return stat !== undefined && hasEnded(stat);
}
