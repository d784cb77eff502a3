import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { ServiceRegistry } from '@pi/remote';
import {
  DEFAULT_HEARTBEAT,
  createRpcHost,
  listenWebSocket,
  tokenAuthentication,
  type WebSocketListener,
} from '@pi/transport-trpc';
import { connect, type PiClient } from './connect';

const TOKEN = 'heartbeat-token';
let listener: WebSocketListener | undefined;
let directory: string | undefined;
const clients: PiClient[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await listener?.close();
  if (directory !== undefined) await rm(directory, { recursive: true, force: true });
  [listener, directory] = [undefined, undefined];
});

async function serve(): Promise<string> {
  directory = await mkdtemp(join(tmpdir(), 'pi-client-'));
  const host = createRpcHost({
    registry: new ServiceRegistry(),
    authenticate: tokenAuthentication(TOKEN, { principal: 'tool', claims: {} }),
  });
  const socketPath = join(directory, 'host.sock');
  listener = (await listenWebSocket(host, { socketPath }))._unsafeUnwrap();
  return socketPath;
}

it('exposes the heartbeat window in force: the default, the one given, or none', async () => {
  const socketPath = await serve();
  const window = { idleMs: 250, timeoutMs: 150 };
  for (const [heartbeat, expected] of [
    [undefined, DEFAULT_HEARTBEAT],
    [window, window],
    [false, false],
  ] as const) {
    const client = (await connect({ socketPath, token: TOKEN, heartbeat }))._unsafeUnwrap();
    clients.push(client);
    expect(client.heartbeat).toEqual(expected);
  }
});

it('a heartbeat that is not a positive number of milliseconds is refused before any connection is tried', async () => {
  for (const heartbeat of [
    { idleMs: 0, timeoutMs: 100 },
    { idleMs: 100, timeoutMs: -1 },
    { idleMs: Number.POSITIVE_INFINITY, timeoutMs: 100 },
  ]) {
    const result = await connect({ socketPath: '/nowhere.sock', token: TOKEN, heartbeat });
    expect(result.isErr() && result.error.code).toBe('invalid_argument');
  }
});
