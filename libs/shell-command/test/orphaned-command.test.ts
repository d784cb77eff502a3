import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { compiledScript } from '@pi/compiled-script';
import { hasEnded, readProcessStatSync } from '@pi/connection-files/process-stat';
import { eventually } from '@pi/test-support';

// A session process that ends however it ends must not leave its running `bash` command behind: the command leads
// a process group of its own, out of reach of whatever ends the session. These run the real runner in a real
// process and end it for real; they wait on polls with generous deadlines and never assert durations.

const PROJECT = fileURLToPath(new URL('..', import.meta.url));
const SESSION_LIKE = fileURLToPath(new URL('./session-like-process.ts', import.meta.url));

type Session = ChildProcessByStdio<Writable, Readable, Readable>;

const pidsToKill: number[] = [];
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const pid of pidsToKill.splice(0)) {
    for (const target of [pid, -pid]) {
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        // Gone already, as it should be.
      }
    }
  }
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Whether `pid` is a living process (a zombie waiting to be reaped is dead). */
function alive(pid: number): boolean {
  const stat = readProcessStatSync(pid);
  return stat !== undefined && !hasEnded(stat);
}

/** Starts the session-like process running `command` in a temporary directory; collects what it prints. */
async function startSession(command: string, graceMs = 60_000): Promise<{ session: Session; output: () => string }> {
  const cwd = await mkdtemp(join(tmpdir(), 'pi-orphan-'));
  cleanups.push(() => rm(cwd, { recursive: true, force: true }));
  const script = await compiledScript(SESSION_LIKE);
  const session = spawn(process.execPath, [script, command, cwd, String(graceMs)], {
    cwd: PROJECT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  pidsToKill.push(session.pid ?? 0);
  let output = '';
  session.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  session.stderr.setEncoding('utf8').on('data', () => undefined);
  cleanups.push(async () => void session.kill('SIGKILL'));
  return { session, output: () => output };
}

/** The pids a command printed as `<label> <pid>`, once it has printed them all. */
async function printedPids(output: () => string, labels: readonly string[]): Promise<number[]> {
  const pidOf = (label: string) => Number(new RegExp(`^${label} (\\d+)$`, 'm').exec(output())?.[1] ?? NaN);
  await eventually(() => labels.every((label) => Number.isInteger(pidOf(label))));
  const pids = labels.map(pidOf);
  pidsToKill.push(...pids);
  return pids;
}

function ended(session: Session): Promise<void> {
  return new Promise((resolve) =>
    session.exitCode !== null || session.signalCode !== null ? resolve() : session.once('exit', () => resolve()),
  );
}

const RUNNING_SLEEP = 'echo "shell $$"; sleep 300 & echo "sleep $!"; wait';

describe('a session process that ends while its bash command runs', { timeout: 60_000 }, () => {
  it.each([
    ['is SIGKILLed', (session: Session) => session.kill('SIGKILL')],
    ['is SIGTERMed (no handler)', (session: Session) => session.kill('SIGTERM')],
    ['throws an uncaught exception', (session: Session) => session.stdin.write('throw\n')],
    ['calls process.exit', (session: Session) => session.stdin.write('exit\n')],
  ])('%s: the command and what it started are ended', async (_how, end) => {
    const { session, output } = await startSession(RUNNING_SLEEP);
    const [shell = 0, sleep = 0] = await printedPids(output, ['shell', 'sleep']);
    expect(alive(shell) && alive(sleep)).toBe(true);

    end(session);
    await ended(session);

    await eventually(() => !alive(sleep) && !alive(shell));
  });

  it('is SIGKILLed while ending the command’s leftovers: one that ignores SIGTERM is still ended', async () => {
    // The leftover survives the runner's SIGTERM and says so; the session dies during the grace before SIGKILL.
    const leftover = `(trap 'echo got-term' TERM; : > ready; echo "leftover $BASHPID"; while :; do sleep 1; done) &`;
    const { session, output } = await startSession(`${leftover} while [ ! -e ready ]; do sleep 0.01; done`);
    const [pid = 0] = await printedPids(output, ['leftover']);
    await eventually(() => output().includes('got-term'));
    expect(alive(pid)).toBe(true);

    session.kill('SIGKILL');
    await ended(session);

    await eventually(() => !alive(pid));
  });
});
