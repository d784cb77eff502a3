import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { ServiceRegistry } from '@pi/remote';
import { Catalog, createCatalog } from '@pi/test-support';
import { createRpcHost, listenWebSocket, tokenAuthentication, type WebSocketListener } from '@pi/transport-trpc';
import { watchThinkingLevel } from '../examples/watch-state';
import { connect } from './connect';

let listener: WebSocketListener | undefined;
let directory: string | undefined;

afterEach(async () => {
  await listener?.close();
  if (directory !== undefined) await rm(directory, { recursive: true, force: true });
});

async function serveCatalog(): Promise<string> {
  directory = await mkdtemp(join(tmpdir(), 'pi-client-'));
  const registry = new ServiceRegistry();
  registry.provide(Catalog, createCatalog());
  const host = createRpcHost({
    registry,
    authenticate: tokenAuthentication('secret-token', { principal: 'tool', claims: {} }),
  });
  const socketPath = join(directory, 'host.sock');
  const listened = await listenWebSocket(host, { socketPath });
  if (listened.isErr()) throw new Error(listened.error.message);
  listener = listened.value;
  return socketPath;
}

it('the watch example runs: connect, watch a state, call, see the change', async () => {
  const socketPath = await serveCatalog();
  const lines: string[] = [];
  await watchThinkingLevel(socketPath, 'secret-token', (line) => lines.push(line));
  expect(lines).toEqual(['thinking level: high', 'thinking level: off']);
});

it('a wrong token is an error value with not_authorized', async () => {
  const socketPath = await serveCatalog();
  const result = await connect({ socketPath, token: 'wrong', timeoutMs: 5_000 });
  expect(result.isErr() && result.error.code).toBe('not_authorized');
});

it('nobody listening is an error value with unavailable once the timeout passes', async () => {
  directory = await mkdtemp(join(tmpdir(), 'pi-client-'));
  const result = await connect({ socketPath: join(directory, 'nobody.sock'), token: 't', timeoutMs: 300 });
  expect(result.isErr() && result.error.code).toBe('unavailable');
});

it('bad options are refused before any connection is tried', async () => {
  // What a script without types could pass: refused at run time too.
  const tokenAlone = await connect({ token: 't' } as never);
  expect(tokenAlone.isErr() && tokenAlone.error.code).toBe('invalid_argument');
  expect((await connect({ socketPath: '/x', url: 'ws://127.0.0.1:1', token: 't' } as never)).isErr()).toBe(true);
  const badUrl = await connect({ url: 'http://127.0.0.1:1', token: 't' });
  expect(badUrl.isErr() && badUrl.error.code).toBe('invalid_argument');
  const noToken = await connect({ socketPath: '/x', token: '' });
  expect(noToken.isErr() && noToken.error.code).toBe('invalid_argument');
});
