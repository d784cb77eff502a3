import { existsSync, readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connect, type PiClient } from '@pi/client';
import { SessionPicker, type SessionDirectoryEvent, type SessionPickerService } from '@pi/session-directory';
import { eventually } from '@pi/test-support';
import {
  PROCESS_TEST_TIMEOUT_MS,
  createCoordinatorSandbox,
  isAlive,
  readText,
  type CoordinatorSandbox,
} from './coordinator-sandbox';
import { COORDINATOR_NODE_FLAGS, SESSION_NODE_FLAGS } from '../src/node-flags';

let sandbox: CoordinatorSandbox | undefined;
const sessionClients: PiClient[] = [];
afterEach(async () => {
  for (const client of sessionClients.splice(0)) client.close();
  await sandbox?.cleanUp();
  sandbox = undefined;
}, PROCESS_TEST_TIMEOUT_MS);

async function started(): Promise<CoordinatorSandbox> {
  sandbox = await createCoordinatorSandbox();
  const run = await sandbox.coordinator(['start']);
  expect(run, run.stderr).toMatchObject({ code: 0 });
  return sandbox;
}

function coordinatorPid(box: CoordinatorSandbox): number {
  return (JSON.parse(readText(box.files.connectionFile)) as { pid: number }).pid;
}

/** The node options a running process was started with: its command line up to the script (a `.mjs` file). */
function nodeOptionsOf(pid: number): string[] {
  const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  return argv.slice(
    1,
    argv.findIndex((arg) => arg.endsWith('.mjs')),
  );
}

/** The session's own view of its coordinator link, through the SessionPicker it serves its presentations. */
async function sessionPicker(box: CoordinatorSandbox, sessionId: string): Promise<SessionPickerService> {
  const client = (await connect({ session: sessionId, dataDir: box.dataDir, reconnect: false }))._unsafeUnwrap();
  sessionClients.push(client);
  return client.use(SessionPicker);
}

describe('pi-coordinator and its session processes', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('stop stops the session processes it started, then removes its runtime files', async () => {
    const box = await started();
    const { directory } = await box.directory();
    const session = await box.createSession(directory);
    expect(session.status).toMatch(/^(idle|active)$/);
    const pid = box.sessionPid(session.sessionId);
    expect(pid !== undefined && isAlive(pid)).toBe(true);

    expect(await box.coordinator(['stop'])).toMatchObject({ code: 0, stdout: 'pi-coordinator: stopped\n' });
    expect(isAlive(pid ?? 0)).toBe(false);
    for (const file of [box.files.socketPath, box.files.pidFile, box.files.lockFile, box.files.connectionFile]) {
      expect(existsSync(file), file).toBe(false);
    }

    // Started again, it keeps the record, closed: nothing to take over.
    expect(await box.coordinator(['start'])).toMatchObject({ code: 0 });
    const { directory: after } = await box.directory();
    expect(after.state.value.sessions).toEqual([{ ...session, status: 'closed', updatedAt: expect.any(String) }]);
    expect(box.log()).not.toContain('took over');
  });

  it('SIGKILLed with a session running, a coordinator started again takes the session over', async () => {
    const box = await started();
    const { directory } = await box.directory();
    const session = await box.createSession(directory, 'outlives its coordinator');
    const sessionPid = box.sessionPid(session.sessionId) ?? 0;
    const picker = await sessionPicker(box, session.sessionId);
    await eventually(() => picker.state.value.upstream === 'connected');

    const killed = coordinatorPid(box);
    process.kill(killed, 'SIGKILL');
    // Gone, not only signalled: until its parent reaps it, a killed process still counts as running.
    await eventually(() => !isAlive(killed));
    await eventually(() => picker.state.value.upstream === 'disconnected');
    expect(isAlive(sessionPid)).toBe(true);

    const again = await box.coordinator(['start']);
    expect(again, again.stderr).toMatchObject({ code: 0 });
    await eventually(() => box.log().includes(`pi-coordinator: took over running sessions ${session.sessionId}`));
    // The session reconnects upstream by itself, and the directory lists it as running again.
    await eventually(() => picker.state.value.upstream === 'connected');
    const { directory: after } = await box.directory();
    await eventually(() =>
      after.state.value.sessions.some((s) => s.sessionId === session.sessionId && s.status !== 'closed'),
    );
    const record = after.state.value.sessions.find((s) => s.sessionId === session.sessionId);
    expect(record).toMatchObject({
      title: 'outlives its coordinator',
      cwd: box.project,
      workspaceId: session.workspaceId,
      ownerId: session.ownerId,
      status: expect.stringMatching(/^(idle|active)$/),
    });
    expect(box.sessionPid(session.sessionId)).toBe(sessionPid);
    expect(isAlive(sessionPid)).toBe(true);
  });
});

/** Tests that neither stop nor kill the coordinator share one, each with a session of its own. */
describe('sessions of one running pi-coordinator', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  let box: CoordinatorSandbox;
  beforeAll(async () => {
    box = await createCoordinatorSandbox();
    const run = await box.coordinator(['start']);
    expect(run, run.stderr).toMatchObject({ code: 0 });
  }, PROCESS_TEST_TIMEOUT_MS);
  afterAll(() => box?.cleanUp(), PROCESS_TEST_TIMEOUT_MS);

  it.skipIf(!existsSync('/proc/self/cmdline'))(
    'the coordinator started in the background and its sessions run with the young generation capped',
    async () => {
      const { directory } = await box.directory();
      const session = await box.createSession(directory);
      expect(nodeOptionsOf(coordinatorPid(box))).toEqual(expect.arrayContaining([...COORDINATOR_NODE_FLAGS]));
      expect(nodeOptionsOf(box.sessionPid(session.sessionId) ?? 0)).toEqual(
        expect.arrayContaining([...SESSION_NODE_FLAGS]),
      );
    },
  );

  it('a session process killed turns its record closed, and a directory subscriber hears it', async () => {
    const { directory } = await box.directory();
    const session = await box.createSession(directory);
    const events: SessionDirectoryEvent[] = [];
    directory.events.subscribe((event) => events.push(event));

    process.kill(box.sessionPid(session.sessionId) ?? 0, 'SIGKILL');
    await eventually(() =>
      events.some(
        (event) =>
          event.type === 'changed' &&
          event.session.sessionId === session.sessionId &&
          event.session.status === 'closed',
      ),
    );
    expect(directory.state.value.sessions.find((s) => s.sessionId === session.sessionId)?.status).toBe('closed');
  });
});
