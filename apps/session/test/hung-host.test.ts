import { afterEach, describe, expect, it } from 'vitest';
import { connect, type PiClient } from '@pi/client';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { Models, type ModelsService } from '@pi/providers-builtin';
import { nextValue, remoteErrorOf } from '@pi/test-support';
import {
  PROCESS_TEST_TIMEOUT_MS,
  createSandbox,
  readConnectionFile,
  runPiSession,
  type SessionProcess,
  type SessionSandbox,
} from './pi-session-process';

/** Short, so the test is quick; the product default is 5 s + 3 s. */
const HEARTBEAT = { idleMs: 300, timeoutMs: 300 };
/** Long enough that the first reconnect comes after the test has changed the host's state behind the client. */
const RECONNECT = { minDelayMs: 1_000, maxDelayMs: 2_000 };

let sandbox: SessionSandbox | undefined;
let session: SessionProcess | undefined;
const clients: PiClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  // Never leave a stopped process behind, whatever the test did: continue it, then kill it.
  if (session?.child.pid !== undefined && session.child.exitCode === null) session.child.kill('SIGCONT');
  await session?.stop('SIGKILL');
  await sandbox?.remove();
  [session, sandbox] = [undefined, undefined];
});

async function open(socketPath: string, token: string, heartbeat: typeof HEARTBEAT | false) {
  const client = (await connect({ socketPath, token, reconnect: RECONNECT, heartbeat }))._unsafeUnwrap();
  clients.push(client);
  return { client, models: await client.use(Models) };
}

/** A model of the catalogue other than the selected one, for a change the client cannot have seen. */
function anotherModel(models: ModelsService) {
  const { catalog, configuration } = models.state.value;
  const other = catalog.availableModels.find(
    (model) => model.provider !== configuration.model?.provider || model.modelId !== configuration.model?.modelId,
  );
  if (other === undefined) throw new Error('The catalogue has a single model');
  return { provider: other.provider, modelId: other.modelId };
}

describe('a client of a pi-session that hangs (SIGSTOP)', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('is told disconnected within its heartbeat window, and reconnects with fresh state after SIGCONT', async () => {
    sandbox = await createSandbox();
    session = runPiSession(sandbox, sandbox.flags);
    const { socketPath, token, pid } = await readConnectionFile((await session.listening()).connectionFile);
    const { client, models } = await open(socketPath, token, HEARTBEAT);
    // A client without a heartbeat: the behaviour before, and the one that changes the state behind our back.
    const bystander = await open(socketPath, token, false);
    expect(client.heartbeat).toEqual(HEARTBEAT);

    process.kill(pid, 'SIGSTOP');
    const stoppedAt = performance.now();
    const inFlight = remoteErrorOf(models.refresh(BACKGROUND_CONTEXT));
    const down = await nextValue(client.connection, (state) => state.status === 'disconnected');
    const detectedMs = performance.now() - stoppedAt;
    expect(down).toMatchObject({ retrying: true, reason: { code: 'disconnected' } });
    expect((await inFlight).code).toBe('disconnected');
    const failFastStart = performance.now();
    expect((await remoteErrorOf(models.refresh(BACKGROUND_CONTEXT))).code).toBe('disconnected');
    const failFastMs = performance.now() - failFastStart;
    expect(bystander.client.connection.value.status).toBe('connected');
    console.log(
      `hung host: detected ${detectedMs.toFixed(0)} ms after SIGSTOP ` +
        `(window ${HEARTBEAT.idleMs} + ${HEARTBEAT.timeoutMs} ms after the host's last frame); ` +
        `a call while down failed in ${failFastMs.toFixed(1)} ms`,
    );

    process.kill(pid, 'SIGCONT');
    const selected = anotherModel(bystander.models);
    await bystander.models.select(selected, BACKGROUND_CONTEXT);
    await nextValue(client.connection, (state) => state.status === 'connected' && state.epoch === 2);
    const rehydrated = await nextValue(
      models.state,
      (state) => state.configuration.model?.modelId === selected.modelId,
    );
    expect(rehydrated.configuration.model).toEqual(selected);
    await models.select(anotherModel(models), BACKGROUND_CONTEXT);
    await nextValue(bystander.models.state, (state) => state.configuration.model?.modelId !== selected.modelId);
  });
});
