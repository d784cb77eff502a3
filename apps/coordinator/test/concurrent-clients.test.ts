import { existsSync, readdirSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { RemoteError } from '@pi/plugin-api';
import { connectionFilePath, isRunning, workspaceIdOf, type CoordinatorFiles } from '@pi/connection-files';
import {
  SessionDirectory,
  SessionPicker,
  type SessionDirectoryService,
  type SessionRecordSummary,
} from '@pi/session-directory';
import {
  createPiSandbox,
  eventually,
  killSandboxProcesses,
  readText,
  runProgram,
  sandboxClients,
} from '@pi/test-support';
import type { RpcClient } from '@pi/transport-trpc';

const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'pi-coordinator.mjs');
/** Twenty real session processes starting at once on a two-core CI machine that runs other suites too. */
const TEST_TIMEOUT_MS = 240_000;
/** Polling turns for conditions that wait on processes (about two minutes); never a measured duration. */
const PROCESS_ATTEMPTS = 24_000;
const RUNNING = /^(idle|active)$/;

/** A private home for one coordinator: XDG data, config and runtime directories, HOME, and project directories. */
interface Sandbox {
  readonly root: string;
  readonly dataDir: string;
  readonly files: CoordinatorFiles;
  /** A new project directory in the sandbox. */
  project(name: string): Promise<string>;
  coordinator(args: readonly string[]): Promise<{ code: number | null; output: string }>;
  /** A new client of the running coordinator as the local user (its own connection), and its directory. */
  userDirectory(): Promise<SessionDirectoryService>;
  /** A client of a session's own socket, as a presentation connects. */
  presentation(sessionId: string): Promise<RpcClient>;
  sessionPid(sessionId: string): number | undefined;
  /** The sessions whose connection file names a live process. */
  liveConnectionFiles(): string[];
  /** Live processes whose command line names the sandbox: its sessions (they get `--data-dir <root>/…`). */
  sessionProcesses(): number[];
  coordinatorPid(): number | undefined;
  /** What `start` made the coordinator write to its log. */
  log(): string;
  /** Clients closed, SIGKILL to every process of the sandbox (the tests run the stops they are about), removed. */
  cleanUp(): Promise<void>;
}

async function createSandbox(): Promise<Sandbox> {
  const home = await createPiSandbox({ prefix: 'pcc-' });
  const { root, env, files } = home;
  const { dataDir } = home.directories;
  const sessionsDir = join(dataDir, 'sessions');
  const connectionFiles = () =>
    (existsSync(sessionsDir) ? readdirSync(sessionsDir) : [])
      .filter((name) => name.endsWith('.connection.json'))
      .map((name) => name.slice(0, -'.connection.json'.length))
      .sort();
  const clients = sandboxClients(home);
  const coordinator = async (args: readonly string[]) => {
    const { code, stdout, stderr } = await runProgram(BIN, args, { cwd: root, env });
    return { code, output: stdout + stderr };
  };
  const sandbox: Sandbox = {
    root,
    dataDir,
    files,
    async project(name) {
      const path = join(root, name);
      await mkdir(path, { recursive: true });
      return path;
    },
    coordinator,
    userDirectory: async () => (await clients.coordinator()).use(SessionDirectory),
    presentation: (sessionId) => clients.session(sessionId),
    sessionPid: (sessionId) => pidIn(readText(connectionFilePath(dataDir, sessionId))),
    liveConnectionFiles: () => connectionFiles().filter((sessionId) => isAlive(sandbox.sessionPid(sessionId))),
    sessionProcesses: () => processesNaming(root),
    coordinatorPid: () => pidIn(readText(files.pidFile)),
    log: () => readText(join(files.logDir, 'coordinator.log')),
    async cleanUp() {
      clients.closeAll();
      await killSandboxProcesses(home);
      await home.remove();
    },
  };
  return sandbox;
}

function pidIn(text: string): number | undefined {
  const pid = Number(/(?:^|"pid":\s*)(\d+)/m.exec(text)?.[1]);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/**
 * Whether a process runs. A zombie does not: a session that outlived its coordinator is the child of init once it
 * exits, and init may take a while to reap it.
 */
function isAlive(pid: number | undefined): boolean {
  return pid !== undefined && isRunning(pid);
}

/** Live processes whose command line contains `text` (Linux; elsewhere none are found). */
function processesNaming(text: string): number[] {
  if (!existsSync('/proc')) return [];
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => readText(`/proc/${name}/cmdline`).includes(text))
    .map(Number)
    .filter((pid) => pid !== process.pid && isAlive(pid));
}

const idsOf = (sessions: readonly { sessionId: string }[]) => sessions.map((session) => session.sessionId).sort();
const waitFor = (condition: () => boolean) => eventually(condition, PROCESS_ATTEMPTS);

/**
 * The coordinator gives a session a limited time to connect upstream, and twenty node processes starting at once on
 * a loaded two-core machine are slow: when they run out of time, they all do. Such a create fails `start_failed`
 * and must leave nothing behind; the client then tries again, one retry at a time so as not to rebuild the crowd.
 */
const START_TIMED_OUT = /^Session (\S+) did not connect within \d+ ms and was stopped/;
const CREATE_ATTEMPTS = 3;

/** Runs the works it is given one after another. */
function oneAtATime(): <T>(work: () => Promise<T>) => Promise<T> {
  let turn: Promise<unknown> = Promise.resolve();
  return (work) => {
    const result = turn.then(work);
    turn = result.catch(() => undefined);
    return result;
  };
}

async function createOrRetry(
  box: Sandbox,
  directory: SessionDirectoryService,
  options: { title: string; workspaceId: string; cwd: string },
  retry: ReturnType<typeof oneAtATime>,
): Promise<SessionRecordSummary> {
  const create = () => directory.create(options, BACKGROUND_CONTEXT);
  for (let attempt = 1; ; attempt++) {
    try {
      return await (attempt === 1 ? create() : retry(create));
    } catch (error) {
      const timedOut =
        error instanceof RemoteError && error.code === 'start_failed' ? START_TIMED_OUT.exec(error.message) : null;
      if (timedOut === null || attempt === CREATE_ATTEMPTS) throw error;
      const sessionId = timedOut[1] ?? '';
      // Its process was stopped before the call failed; its record goes too.
      expect(isAlive(box.sessionPid(sessionId)), sessionId).toBe(false);
      await waitFor(() => directory.state.value.sessions.every((session) => session.sessionId !== sessionId));
    }
  }
}

/** One client per session: half of them in one shared project directory, half each in a directory of its own. */
async function createConcurrently(
  box: Sandbox,
  count: number,
): Promise<Array<{ directory: SessionDirectoryService; created: SessionRecordSummary }>> {
  const shared = await box.project('shared');
  const clients = await Promise.all(
    Array.from({ length: count }, async (_unused, index) => ({
      index,
      cwd: index % 2 === 0 ? shared : await box.project(`own-${index}`),
      directory: await box.userDirectory(),
    })),
  );
  const retry = oneAtATime();
  return Promise.all(
    clients.map(async ({ index, cwd, directory }) => {
      const options = { title: `session ${index}`, workspaceId: workspaceIdOf(cwd), cwd };
      return { directory, created: await createOrRetry(box, directory, options, retry) };
    }),
  );
}

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.cleanUp();
  sandbox = undefined;
}, TEST_TIMEOUT_MS);

async function started(): Promise<Sandbox> {
  sandbox = await createSandbox();
  const run = await sandbox.coordinator(['start']);
  expect(run.code, run.output).toBe(0);
  return sandbox;
}

describe('a coordinator under concurrent clients', { timeout: TEST_TIMEOUT_MS }, () => {
  it('20 clients creating at once and half of them removing at once leave exactly the rest, running and stored', async () => {
    const box = await started();
    const sessions = await createConcurrently(box, 20);
    const created = sessions.map((session) => session.created);
    expect(new Set(idsOf(created)).size).toBe(20);
    for (const record of created) expect(record.status).toMatch(RUNNING);
    const pids = new Map(created.map((record) => [record.sessionId, box.sessionPid(record.sessionId)]));
    for (const [sessionId, pid] of pids) expect(isAlive(pid), sessionId).toBe(true);
    expect(new Set(pids.values()).size).toBe(20);

    // Half of them, at once: five of the shared directory's and five of those with a directory of their own.
    const removed = sessions.filter((_session, index) => index % 4 < 2);
    const kept = idsOf(sessions.filter((session) => !removed.includes(session)).map((session) => session.created));
    await Promise.all(removed.map(({ directory, created }) => directory.remove(created.sessionId, BACKGROUND_CONTEXT)));

    // Each client's replica converges on exactly the survivors, each listed once; so does a new client's.
    await waitFor(() =>
      sessions.every(({ directory }) => idsOf(directory.state.value.sessions).join() === kept.join()),
    );
    const fresh = await box.userDirectory();
    expect(idsOf(fresh.state.value.sessions)).toEqual(kept);
    for (const record of fresh.state.value.sessions) expect(record.status).toMatch(RUNNING);
    // A removed session's process has exited (remove resolves after the exit); the survivors' still run.
    for (const { created: record } of removed)
      expect(isAlive(pids.get(record.sessionId)), record.sessionId).toBe(false);
    for (const sessionId of kept) expect(isAlive(pids.get(sessionId)), sessionId).toBe(true);
    expect(box.liveConnectionFiles()).toEqual(kept);
    expect(box.sessionProcesses().sort()).toEqual(kept.map((sessionId) => pids.get(sessionId)).sort());

    expect(await box.coordinator(['stop'])).toMatchObject({ code: 0, output: 'pi-coordinator: stopped\n' });
    for (const [sessionId, pid] of pids) expect(isAlive(pid), sessionId).toBe(false);
    expect(box.sessionProcesses()).toEqual([]);
    expect(box.liveConnectionFiles()).toEqual([]);

    // Started again, it lists the same records from SQLite: the survivors, closed now, with what they were made with.
    expect((await box.coordinator(['start'])).code).toBe(0);
    const reopened = await box.userDirectory();
    expect(idsOf(reopened.state.value.sessions)).toEqual(kept);
    for (const record of reopened.state.value.sessions) {
      const original = created.find((session) => session.sessionId === record.sessionId);
      const { title, cwd, workspaceId, ownerId } = original ?? {};
      expect(record).toMatchObject({ title, cwd, workspaceId, ownerId, status: 'closed' });
    }
    expect(box.sessionProcesses()).toEqual([]);
  });

  it('SIGKILLed while its sessions run, a coordinator started again takes over exactly the ones not removed', async () => {
    const box = await started();
    const sessions = await createConcurrently(box, 8);
    const removed = sessions.slice(0, 2).map((session) => session.created.sessionId);
    await Promise.all(removed.map((sessionId) => sessions[0]?.directory.remove(sessionId, BACKGROUND_CONTEXT)));
    const kept = idsOf(sessions.slice(2).map((session) => session.created));
    const pids = new Map(kept.map((sessionId) => [sessionId, box.sessionPid(sessionId)]));

    const killed = box.coordinatorPid();
    expect(isAlive(killed)).toBe(true);
    process.kill(killed ?? 0, 'SIGKILL');
    // Gone, not only signalled (the sessions it started keep running: they lead their own process groups).
    await waitFor(() => !isAlive(killed));
    for (const [sessionId, pid] of pids) expect(isAlive(pid), sessionId).toBe(true);

    const again = await box.coordinator(['start']);
    expect(again.code, again.output).toBe(0);
    // `start` returns once the socket answers, which can be before the daemon has written its first lines.
    const tookOverLine = /^pi-coordinator: took over running sessions (.+)$/m;
    await waitFor(() => tookOverLine.test(box.log()));
    const tookOver = tookOverLine.exec(box.log())?.[1];
    expect(tookOver?.split(', ').sort(), box.log()).toEqual(kept);
    const directory = await box.userDirectory();
    expect(idsOf(directory.state.value.sessions)).toEqual(kept);
    for (const record of directory.state.value.sessions) expect(record.status).toMatch(RUNNING);

    // Each reconnects upstream by itself: its picker says so, and a presentation it reports makes it active.
    for (const sessionId of kept) {
      const picker = await (await box.presentation(sessionId)).use(SessionPicker);
      await waitFor(() => picker.state.value.upstream === 'connected');
    }
    await waitFor(() => directory.state.value.sessions.every((record) => record.status === 'active'));
    for (const [sessionId, pid] of pids) expect(box.sessionPid(sessionId), sessionId).toBe(pid);

    expect(await box.coordinator(['stop'])).toMatchObject({ code: 0, output: 'pi-coordinator: stopped\n' });
    for (const [sessionId, pid] of pids) expect(isAlive(pid), sessionId).toBe(false);
    expect(box.sessionProcesses()).toEqual([]);
  });
});
