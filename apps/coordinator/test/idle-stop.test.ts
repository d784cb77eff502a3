import { describe, expect, it, type TestContext } from 'vitest';
import { connect, type PiClient } from '@pi/client';
import { BACKGROUND_CONTEXT } from '@pi/context';
import type { JsonValue } from '@pi/plugin-api';
import type { SessionDirectoryService } from '@pi/session-directory';
import { eventually } from '@pi/test-support';
import {
  PROCESS_TEST_TIMEOUT_MS,
  createCoordinatorSandbox,
  isAlive,
  type CoordinatorSandbox,
} from './coordinator-sandbox';

/** What a test started: each has its own, so the tests run at once (most of their time is the idle second). */
interface Started {
  readonly box: CoordinatorSandbox;
  readonly directory: SessionDirectoryService;
  /** Session clients, closed before the coordinator's sandbox is cleaned up. */
  readonly sessionClients: PiClient[];
}

/** A coordinator that stops sessions after a second with no client and no run; cleaned up when the test finishes. */
async function started(onTestFinished: TestContext['onTestFinished']): Promise<Started> {
  const box = await createCoordinatorSandbox();
  const sessionClients: PiClient[] = [];
  onTestFinished(async () => {
    for (const client of sessionClients.splice(0)) client.close();
    await box.cleanUp();
  }, PROCESS_TEST_TIMEOUT_MS);
  const run = await box.coordinator(['start', '--idle-stop', '1s']);
  expect(run, run.stderr).toMatchObject({ code: 0 });
  const { directory } = await box.directory();
  return { box, directory, sessionClients };
}

const statusOf = (directory: SessionDirectoryService, sessionId: string) =>
  directory.state.value.sessions.find((session) => session.sessionId === sessionId)?.status;

/**
 * Attaches as a client does through the coordinator: resume (start it if it is not running), then connect. A
 * session stopped in between (its idle second ran out) is resumed again, as pi-tui's revival would.
 */
async function attach({ box, directory, sessionClients }: Started, sessionId: string) {
  for (let attempt = 1; ; attempt++) {
    await directory.resume(sessionId, BACKGROUND_CONTEXT);
    const client = await connect({ session: sessionId, dataDir: box.dataDir, reconnect: false });
    if (client.isOk()) {
      sessionClients.push(client.value);
      return client.value;
    }
    if (attempt === 5) throw client.error;
  }
}

async function call(client: PiClient, method: string, args: JsonValue[]): Promise<Record<string, JsonValue>> {
  const response = await client.call('chat', method, args);
  return (response.value ?? null) as Record<string, JsonValue>;
}

/** Asks the session about the run until it has settled, one round trip after another. */
async function settled(client: PiClient, operationId: string): Promise<string> {
  for (let asked = 0; asked < 2_000; asked++) {
    const { state } = await call(client, 'operation', [{ operationId }]);
    if (state !== 'running') return String(state);
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`The run ${operationId} did not settle`);
}

describe.concurrent('pi-coordinator --idle-stop', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('stops a session nobody uses, keeps its record, and starts it again on attach with its transcript', async ({
    expect,
    onTestFinished,
  }) => {
    const coordinator = await started(onTestFinished);
    const { box, directory } = coordinator;
    const session = await box.createSession(directory, 'kept across stops');
    const firstPid = box.sessionPid(session.sessionId) ?? 0;
    await eventually(() => statusOf(directory, session.sessionId) === 'closed');
    await eventually(() => !isAlive(firstPid));
    expect(directory.state.value.sessions).toEqual([{ ...session, status: 'closed', updatedAt: expect.any(String) }]);

    const client = await attach(coordinator, session.sessionId);
    const accepted = await call(client, 'prompt', [{ text: 'remember the parrot' }]);
    expect(await settled(client, String(accepted['operationId']))).toBe('completed');
    const before = await call(client, 'info', []);
    client.close();
    await eventually(() => statusOf(directory, session.sessionId) === 'closed');

    const again = await attach(coordinator, session.sessionId);
    const after = await call(again, 'info', []);
    expect(after).toMatchObject({ sessionId: session.sessionId, file: before['file'], messages: before['messages'] });
    const page = await call(again, 'history', [{ before: Number(after['entries']), limit: 20 }]);
    expect(JSON.stringify(page)).toContain('remember the parrot');
    await eventually(() => statusOf(directory, session.sessionId) === 'active');
  });

  it('never stops a session with a client attached', async ({ expect, onTestFinished }) => {
    const coordinator = await started(onTestFinished);
    const { box, directory } = coordinator;
    const attached = await box.createSession(directory, 'attached');
    await attach(coordinator, attached.sessionId);
    await eventually(() => statusOf(directory, attached.sessionId) === 'active');
    // A second session, idle from its start: had the attached one been counting, it would have stopped first.
    const unused = await box.createSession(directory, 'unused');
    await eventually(() => statusOf(directory, unused.sessionId) === 'closed');
    expect(statusOf(directory, attached.sessionId)).toBe('active');
    expect(isAlive(box.sessionPid(attached.sessionId) ?? 0)).toBe(true);
  });
});
