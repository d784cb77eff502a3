import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { hasEnded, readProcessStatSync } from '@pi/connection-files/process-stat';
import { eventually } from '@pi/test-support';
import { spawnWatched } from './watched-spawn';

const pidsToKill: number[] = [];
afterEach(() => {
  for (const pid of pidsToKill.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
});

const living = (pid: number) => {
  const stat = readProcessStatSync(pid);
  return stat !== undefined && !hasEnded(stat);
};

/** The pid of the living watcher of the group `pgid`, found by its arguments; null when there is none. */
function watcherOf(pgid: number): number | null {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let args: string[];
    try {
      args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    const at = args.indexOf('pi-bash-watcher');
    if (at !== -1 && args[at + 1] === String(pgid) && living(Number(entry))) return Number(entry);
  }
  return null;
}

describe('a watched command', () => {
  it('runs the command as the group’s leader, watched from outside the group by no child of the command', async () => {
    const { child, release } = spawnWatched('/bin/bash', 'echo "$$"; exec sleep 300', { cwd: '/', env: process.env });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const pgid = child.pid ?? 0;
    pidsToKill.push(pgid);
    await eventually(() => output !== '');
    expect(Number(output)).toBe(pgid);
    expect(readProcessStatSync(pgid)?.processGroup).toBe(pgid);

    await eventually(() => watcherOf(pgid) !== null);
    const watcher = watcherOf(pgid) ?? 0;
    pidsToKill.push(watcher);
    expect(readProcessStatSync(watcher)?.processGroup).not.toBe(pgid);
    expect(readProcessStatSync(watcher)?.parentPid).not.toBe(pgid);

    process.kill(-pgid, 'SIGKILL');
    await release();
    // A SIGKILLed process dies when the kernel next schedules it: on a busy machine, after the watcher has gone.
    await eventually(() => !living(watcher) && !living(pgid));
  });

  it('has its watcher kill the group when the socket closes without a release, as when the session dies', async () => {
    const { child } = spawnWatched('/bin/bash', 'echo "$$"; sleep 300', { cwd: '/', env: process.env });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const pgid = child.pid ?? 0;
    pidsToKill.push(pgid);
    await eventually(() => output !== '' && watcherOf(pgid) !== null);

    // What the kernel does to a session's end of the socket when the session dies.
    (child.stdio[3] as NodeJS.ReadableStream & { destroy(): void }).destroy();

    await new Promise((resolve) => child.once('exit', resolve));
    expect(child.signalCode).toBe('SIGKILL');
  });
});
