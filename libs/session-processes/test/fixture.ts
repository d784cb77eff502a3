import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '@pi/test-support';
import { SessionProcesses, type SessionLaunch, type SessionProcessesOptions, type StatusChange } from '../src/index';
import { isProcessAlive } from '../src/process-signals';

/**
 * A stand-in for pi-session: reads fd 3 to EOF, writes a marker (its pid, the handoff, a grandchild's pid), then
 * behaves as its mode says. `stay` exits 0 on SIGTERM; `ignore-term` ignores SIGTERM and has a grandchild;
 * `leave-child` exits 0 on SIGTERM but leaves a grandchild running; `exit=N` exits with N at once.
 */
const FAKE_SESSION = `
import { spawn } from 'node:child_process';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
const { values } = parseArgs({ options: { markers: { type: 'string' }, session: { type: 'string' }, mode: { type: 'string' } } });
let handoff;
try { handoff = readFileSync(3, 'utf8'); } catch (error) { handoff = 'unreadable: ' + error.code; }
console.log('fake session ' + values.session + ' is up');
const marker = { pid: process.pid, handoff };
const mode = values.mode;
if (mode === 'ignore-term') process.on('SIGTERM', () => console.log('ignoring SIGTERM'));
else process.on('SIGTERM', () => { console.log('stopping on SIGTERM'); process.exit(0); });
if (mode === 'ignore-term' || mode === 'leave-child') {
  marker.grandchild = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }).pid;
}
const file = join(values.markers, values.session + '-' + process.pid + '.json');
writeFileSync(file + '.tmp', JSON.stringify(marker));
renameSync(file + '.tmp', file);
if (mode.startsWith('exit=')) process.exit(Number(mode.slice(5)));
setInterval(() => {}, 1000);
`;

export type FakeMode = 'stay' | 'ignore-term' | 'leave-child' | `exit=${number}`;

export interface Marker {
  readonly pid: number;
  readonly handoff: string;
  readonly grandchild?: number;
}

export interface Harness {
  readonly processes: SessionProcesses;
  readonly logDir: string;
  /** Every status change, in order. */
  readonly changes: StatusChange[];
  launch(sessionId: string): SessionLaunch;
  credential(sessionId: string): string;
  /** The markers of every process started for the session so far. */
  markers(sessionId: string): Marker[];
  /** The marker of the session's one process, once it has written it. */
  marker(sessionId: string): Promise<Marker>;
}

export interface HarnessOptions extends Partial<Omit<SessionProcessesOptions, 'command' | 'handoff' | 'logDir'>> {
  /** Per session id; `stay` otherwise. */
  readonly modes?: Readonly<Record<string, FakeMode>>;
}

const folders: string[] = [];
const managers: SessionProcesses[] = [];
const strays: number[] = [];

export async function createHarness(options: HarnessOptions = {}): Promise<Harness> {
  const dir = await mkdtemp(join(tmpdir(), 'pi-session-processes-'));
  folders.push(dir);
  const markerDir = join(dir, 'markers');
  const script = join(dir, 'fake-session.mjs');
  await mkdir(markerDir);
  await writeFile(script, FAKE_SESSION);
  const credentials = new Map<string, string>();
  const credential = (sessionId: string) => {
    const known = credentials.get(sessionId) ?? `secret-${sessionId}-${randomBytes(12).toString('hex')}`;
    credentials.set(sessionId, known);
    return known;
  };
  const logDir = join(dir, 'logs');
  const { modes = {}, ...tuning } = options;
  const processes = new SessionProcesses({
    ...tuning,
    logDir,
    command: (launch) => ({
      file: process.execPath,
      args: [
        script,
        '--markers',
        markerDir,
        '--session',
        launch.sessionId,
        '--mode',
        modes[launch.sessionId] ?? 'stay',
      ],
    }),
    handoff: (launch) => ({
      version: 1,
      socketPath: join(dir, 'coordinator.sock'),
      credential: credential(launch.sessionId),
      sessionId: launch.sessionId,
      workspaceId: launch.workspaceId,
    }),
  });
  managers.push(processes);
  const changes: StatusChange[] = [];
  processes.onStatusChanged((change) => changes.push(change));
  const markers = (sessionId: string) =>
    readdirSync(markerDir)
      .filter((name) => name.startsWith(`${sessionId}-`) && name.endsWith('.json'))
      .map((name) => JSON.parse(readFileSync(join(markerDir, name), 'utf8')) as Marker);
  return {
    processes,
    logDir,
    changes,
    launch: (sessionId) => ({ sessionId, workspaceId: 'w-0123456789abcdef', cwd: dir }),
    credential,
    markers,
    marker: async (sessionId) => {
      await eventually(() => markers(sessionId).length > 0);
      const [only, ...more] = markers(sessionId);
      if (only === undefined || more.length > 0)
        throw new Error(`${markers(sessionId).length} processes of ${sessionId}`);
      return only;
    },
  };
}

/** A detached process that is not the manager's child, as a session that outlived a coordinator is. */
export function spawnStray(): number {
  const child = spawn(
    process.execPath,
    ['-e', "process.on('SIGTERM', () => process.exit(0)); setInterval(() => {}, 1000)"],
    {
      detached: true,
      stdio: 'ignore',
    },
  );
  if (child.pid === undefined) throw new Error('Cannot spawn a stray process');
  strays.push(child.pid);
  return child.pid;
}

export const alive = (pid: number): boolean => isProcessAlive(pid);

/** For afterEach: stops every manager, kills anything a test left (even after a failure), removes the folders. */
export async function cleanUpHarnesses(): Promise<void> {
  await Promise.all(managers.splice(0).map((manager) => manager.stopAll()));
  const pids = [...strays.splice(0)];
  for (const dir of folders) {
    const markerDir = join(dir, 'markers');
    if (!existsSync(markerDir)) continue;
    for (const name of readdirSync(markerDir).filter((file) => file.endsWith('.json'))) {
      const marker = JSON.parse(readFileSync(join(markerDir, name), 'utf8')) as Marker;
      pids.push(marker.pid, ...(marker.grandchild === undefined ? [] : [marker.grandchild]));
    }
  }
  for (const pid of pids.filter(alive)) process.kill(pid, 'SIGKILL');
  await Promise.all(folders.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}
