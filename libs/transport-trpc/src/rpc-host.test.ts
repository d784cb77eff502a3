import { ok } from 'neverthrow';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceRegistry } from '@pi/remote';
import { loopbackFactory } from './loopback';
import { RpcConnection } from './rpc-connection';
import { createRpcHost, type RpcHost } from './rpc-host';
import type { Authenticate } from './authentication';

const IDENTITY = { principal: 'tester', claims: {} };

function settled(connection: RpcConnection) {
  return new Promise<void>((resolve) => {
    const stop = connection.state.subscribe((state) => {
      if (state.status === 'connecting') return;
      queueMicrotask(() => stop());
      resolve();
    });
  });
}

describe('createRpcHost', () => {
  let host: RpcHost;
  const connections: RpcConnection[] = [];
  afterEach(() => {
    for (const connection of connections.splice(0)) connection.close();
    host.close();
  });

  function connect(reconnect: false | { minDelayMs: number; maxDelayMs: number } = false) {
    const connection = new RpcConnection({
      socketFactory: loopbackFactory(host),
      connectionParams: { token: 't' },
      reconnect,
    });
    connections.push(connection);
    return connection;
  }

  it('a socket that closes while authentication awaits leaves no endpoint and announces no client', async () => {
    let entered: () => void = () => undefined;
    const authenticating = new Promise<void>((resolve) => (entered = resolve));
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let denied = false;
    const authenticate: Authenticate = async () => {
      entered();
      await gate;
      denied = true;
      return ok(IDENTITY);
    };
    host = createRpcHost({ registry: new ServiceRegistry(), authenticate, keepAlive: false });
    const announced: string[] = [];
    host.onClientConnect((clientId) => announced.push(clientId));

    const connection = connect();
    await authenticating;
    connection.close();
    release();
    await gate;
    // The host finishes the connection in microtasks after authentication returns; one macrotask drains them.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(denied).toBe(true);
    expect(host.stats()).toEqual([]);
    expect(announced).toEqual([]);
  });

  it('closing the host closes every connection, and a closed host refuses new ones', async () => {
    host = createRpcHost({ registry: new ServiceRegistry(), authenticate: () => ok(IDENTITY), keepAlive: false });
    const disconnected: string[] = [];
    host.onClientDisconnect((clientId) => disconnected.push(clientId));
    const first = connect();
    await settled(first);
    expect(first.state.value.status).toBe('connected');
    expect(host.stats()).toHaveLength(1);

    host.close();
    await settled(first);
    expect(first.state.value).toMatchObject({
      status: 'disconnected',
      reason: { message: 'The connection closed: The host is closed' },
    });
    expect(host.stats()).toEqual([]);
    expect(disconnected).toHaveLength(1);

    const later = connect();
    await settled(later);
    expect(later.state.value).toMatchObject({ status: 'disconnected', retrying: false });
    expect(host.stats()).toEqual([]);
  });
});
