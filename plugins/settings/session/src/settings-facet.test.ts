import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import type { CodingAgentSessionPluginContext } from '@pi/plugin-api';
import { TEST_SESSION_TOKEN, startTestSessionHost, type TestSessionHost } from '@pi/host-session/testing';
import type { JsonValue } from '@pi/remote';
import { Preferences, Settings, type PreferenceKey } from '@pi/settings';
import { TRANSPORTS, eventually, openRawChannel, remoteErrorOf, serveHost, type HostTransport } from '@pi/test-support';
import { createRpcClient, type RpcClient } from '@pi/transport-trpc';
import { sessionFacet } from './index';

describe.each(TRANSPORTS)('the settings plugin over %s', (kind) => {
  let directory: string;
  let fixture: TestSessionHost | undefined;
  let transport: HostTransport | undefined;
  const clients: RpcClient[] = [];
  const userFile = () => join(directory, 'config', 'settings.json');
  const projectFile = () => join(directory, 'project', '.pi', 'settings.json');

  const write = async (path: string, value: unknown) => {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, typeof value === 'string' ? value : JSON.stringify(value));
  };

  /** Starts the host with @pi/settings and a facet that reads a setting at activation, as a provider plugin would. */
  const start = async (config: JsonValue | null = null) => {
    const readAtActivation: { model?: JsonValue | undefined } = {};
    const reader = (context: CodingAgentSessionPluginContext) =>
      context.onActivate(() => {
        readAtActivation.model = context.use(Settings).get('defaultModel');
      });
    fixture = await startTestSessionHost({
      directory,
      facets: [
        { id: '@pi/settings', facet: sessionFacet, config },
        { id: 'reader', facet: reader },
      ],
    });
    transport = await serveHost(kind, fixture.host.rpc);
    return readAtActivation;
  };

  const connect = async () => {
    if (transport === undefined) throw new Error('start the host first');
    const client = createRpcClient({
      socketFactory: transport.socketFactory,
      connectionParams: { token: TEST_SESSION_TOKEN },
    });
    clients.push(client);
    await client.whenConnected();
    return client.use(Preferences);
  };

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'pi-settings-host-'));
  });

  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await transport?.close();
    await fixture?.close();
    transport = undefined;
    fixture = undefined;
    await rm(directory, { recursive: true, force: true });
  });

  it('layers defaults, the manifest, the user file and the project file into the preferences state', async () => {
    await write(userFile(), { theme: 'light', defaultThinkingLevel: 'low' });
    await write(projectFile(), { defaultThinkingLevel: 'off' });
    const read = await start({ defaults: { defaultModel: { provider: 'offline', modelId: 'thinker' } } });
    const preferences = await connect();
    expect(preferences.state.value).toEqual({
      theme: 'light',
      defaultModel: { provider: 'offline', modelId: 'thinker' },
      defaultThinkingLevel: 'off',
      warnings: [],
    });
    expect(read.model).toEqual({ provider: 'offline', modelId: 'thinker' });
  });

  it('keeps the other layers of a broken file and reports a warning in the state', async () => {
    await write(userFile(), '{ "theme": ');
    await write(projectFile(), { theme: 'light' });
    await start();
    const preferences = await connect();
    expect(preferences.state.value.theme).toBe('light');
    expect(preferences.state.value.warnings).toEqual([
      { layer: 'user', message: 'the user settings.json is not valid JSON' },
    ]);
    expect(JSON.stringify(preferences.state.value)).not.toContain(directory);
  });

  it('writes an allowlisted preference to the user file and shows it to every client', async () => {
    await start();
    const [first, second] = [await connect(), await connect()];
    await first.set('defaultModel', { provider: 'offline', modelId: 'thinker' }, BACKGROUND_CONTEXT);
    await eventually(() => second.state.value.defaultModel !== null);
    expect(second.state.value.defaultModel).toEqual({ provider: 'offline', modelId: 'thinker' });
    expect(first.state.value.defaultModel).toEqual({ provider: 'offline', modelId: 'thinker' });
    expect(JSON.parse(await readFile(userFile(), 'utf8'))).toEqual({
      defaultModel: { provider: 'offline', modelId: 'thinker' },
    });
  });

  it('refuses a key outside the allowlist with invalid_argument, on the client and on the server', async () => {
    await start();
    const preferences = await connect();
    const typed = await remoteErrorOf(preferences.set('shellPath' as PreferenceKey, '/bin/evil', BACKGROUND_CONTEXT));
    expect(typed.code).toBe('invalid_argument');
    if (transport === undefined) throw new Error('the host is not served');
    using raw = await openRawChannel(transport.socketFactory, { token: TEST_SESSION_TOKEN });
    const forged = await remoteErrorOf(raw.mutate('preferences.set', { a: ['shellPath', '/bin/evil'], c: '1' }));
    expect(forged.code).toBe('invalid_argument');
    await expect(readFile(userFile(), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses a value of the wrong shape for an allowlisted key', async () => {
    await start();
    const preferences = await connect();
    const error = await remoteErrorOf(preferences.set('defaultThinkingLevel', 'maximum', BACKGROUND_CONTEXT));
    expect(error.code).toBe('invalid_argument');
    expect(preferences.state.value.defaultThinkingLevel).toBe('high');
  });

  it('reports a broken user file as unavailable instead of overwriting it', async () => {
    await write(userFile(), '{ "theme": ');
    await start();
    const preferences = await connect();
    expect((await remoteErrorOf(preferences.set('theme', 'light', BACKGROUND_CONTEXT))).code).toBe('unavailable');
    expect(await readFile(userFile(), 'utf8')).toBe('{ "theme": ');
  });
});
