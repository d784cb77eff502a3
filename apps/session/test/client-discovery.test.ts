import { afterEach, describe, expect, it } from 'vitest';
import { connect, type PiClient } from '@pi/client';
import { Models } from '@pi/providers-builtin';
import {
  PROCESS_TEST_TIMEOUT_MS,
  createSandbox,
  runPiSession,
  type SessionProcess,
  type SessionSandbox,
} from './pi-session-process';

const sandboxes: SessionSandbox[] = [];
const processes: SessionProcess[] = [];
const clients: PiClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await Promise.all(processes.splice(0).map((process) => process.stop('SIGKILL')));
  await Promise.all(sandboxes.splice(0).map((sandbox) => sandbox.remove()));
});

describe('connect() finds a running session', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('by the directory it works in, and by its id, through the connection file', async () => {
    const sandbox = await createSandbox();
    sandboxes.push(sandbox);
    const process = runPiSession(sandbox, sandbox.flags);
    processes.push(process);
    const { sessionId } = await process.listening();

    const byDirectory = (
      await connect({ cwd: sandbox.cwd, dataDir: sandbox.dataDir, reconnect: false })
    )._unsafeUnwrap();
    clients.push(byDirectory);
    const models = await byDirectory.use(Models);
    expect(models.state.value.catalog.availableModels.length).toBeGreaterThan(0);

    const byId = (await connect({ session: sessionId, dataDir: sandbox.dataDir, reconnect: false }))._unsafeUnwrap();
    clients.push(byId);
    expect(byId.connection.value.status).toBe('connected');
  });

  it('says clearly when no session runs there, and holds nothing open', async () => {
    const sandbox = await createSandbox();
    sandboxes.push(sandbox);
    const failed = await connect({ cwd: sandbox.cwd, dataDir: sandbox.dataDir });
    expect(failed._unsafeUnwrapErr()).toMatchObject({
      code: 'unavailable',
      message: `No session is running in ${sandbox.cwd}`,
    });
  });
});
