import { readFileSync } from 'node:fs';

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
  try {
    // The state follows the command name in parentheses, which may itself hold spaces or parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    return false;
  }
}
