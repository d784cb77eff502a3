import { stat } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { Chat, TranscriptReplica, type ChatEvent } from '@pi/chat';
import { connect, type PiClient } from '@pi/client';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { Models } from '@pi/providers-builtin';
import { eventually, nextValue } from '@pi/test-support';
import {
  PROCESS_TEST_TIMEOUT_MS,
  createSandbox,
  readConnectionFile,
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

async function startPiSession(
  extra: readonly string[] = [],
): Promise<{ sandbox: SessionSandbox; process: SessionProcess }> {
  const sandbox = await createSandbox();
  sandboxes.push(sandbox);
  const process = runPiSession(sandbox, [...sandbox.flags, ...extra]);
  processes.push(process);
  return { sandbox, process };
}

async function client(options: Parameters<typeof connect>[0]): Promise<PiClient> {
  const connected = (await connect({ ...options, reconnect: false }))._unsafeUnwrap();
  clients.push(connected);
  return connected;
}

async function modeOf(path: string): Promise<number> {
  return (await stat(path)).mode & 0o777;
}

const gone = (path: string) =>
  stat(path).then(
    () => false,
    () => true,
  );

describe('a running pi-session', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('prints where it listens and writes a private connection file and socket', async () => {
    const { sandbox, process } = await startPiSession(['--port', '0']);

    const line = await process.listening();

    expect(line.socketPath.startsWith(`${sandbox.runtimeDir}/pi/`)).toBe(true);
    expect(line.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/$/);
    const file = await readConnectionFile(line.connectionFile);
    expect(file).toMatchObject({
      sessionId: line.sessionId,
      socketPath: line.socketPath,
      url: line.url,
      pid: process.child.pid,
    });
    expect(file.token.length).toBeGreaterThanOrEqual(32);
    expect(await modeOf(line.connectionFile)).toBe(0o600);
    expect((await stat(line.socketPath)).isSocket()).toBe(true);
    expect(await modeOf(line.socketPath)).toBe(0o600);
  });

  it("serves the default manifest's Models and Chat to a client holding the token, and no one else", async () => {
    const { process } = await startPiSession();
    const { socketPath, token } = await readConnectionFile((await process.listening()).connectionFile);
    const piClient = await client({ socketPath, token });

    const models = await piClient.use(Models);
    expect(models.state.value.catalog.availableModels.map((model) => `${model.provider}/${model.modelId}`)).toContain(
      'offline/echo',
    );
    await models.select({ provider: 'offline', modelId: 'echo' }, BACKGROUND_CONTEXT);
    expect(
      (await nextValue(models.state, (state) => state.configuration.model?.modelId === 'echo')).configuration.model,
    ).toEqual({ provider: 'offline', modelId: 'echo' });

    const chat = await piClient.use(Chat);
    const transcript = new TranscriptReplica(chat, { connection: piClient.connection });
    const events: ChatEvent[] = [];
    // The run's last event: the transcript's settled entry is appended just before it.
    const ended = new Promise<void>((resolve) =>
      chat.events.subscribe((event) => {
        events.push(event);
        if (event.type === 'settled') resolve();
      }),
    );
    const response = await chat.prompt({ text: 'hello there, session' }, BACKGROUND_CONTEXT);
    expect(response).toMatchObject({ accepted: true, error: null });
    await ended;
    await eventually(() => transcript.complete);

    expect(transcript.entries.map((entry) => entry.kind)).toEqual(['run_started', 'user', 'assistant', 'run_settled']);
    expect(transcript.entries[2]).toMatchObject({ kind: 'assistant', text: 'You said: hello there, session' });
    const types = events.map((event) => event.type);
    expect(types.filter((type) => type === 'delta').length).toBeGreaterThan(1);
    expect(types.slice(-4)).toEqual(['final', 'appended', 'appended', 'settled']);

    const refused = await connect({ socketPath, token: `${token}x`, reconnect: false });
    expect(refused._unsafeUnwrapErr().code).toBe('not_authorized');
  });

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'stops cleanly on %s: exit 0, connection file and socket removed',
    async (signal) => {
      const { process } = await startPiSession();
      const line = await process.listening();

      const exit = await process.stop(signal);

      expect(exit).toEqual({ code: 0, signal: null });
      expect(process.stdout()).toContain(`stopped on ${signal}`);
      expect(process.stderr()).toBe('');
      expect(await gone(line.connectionFile)).toBe(true);
      expect(await gone(line.socketPath)).toBe(true);
    },
  );
});
