import { readFile, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ok } from 'neverthrow';
import { WebSocket } from 'ws';
import { ServiceRegistry } from '@pi/remote';
import { createRpcHost } from './rpc-host';
import { isSocketAnswering } from './socket-probe';
import { listenWebSocket, type WebSocketListener } from './websocket-server';

const host = () =>
  createRpcHost({
    registry: new ServiceRegistry(),
    authenticate: () => ok({ principal: 'p', claims: {} }),
    keepAlive: false,
  });

describe('listenWebSocket on a Unix socket', () => {
  let directory: string;
  const listeners: WebSocketListener[] = [];

  afterEach(async () => {
    for (const listener of listeners.splice(0)) await listener.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('creates the socket with mode 0600', async () => {
    directory = await mkdtemp(join(tmpdir(), 'pi-ws-'));
    const listened = await listenWebSocket(host(), { socketPath: join(directory, 'a.sock') });
    listeners.push(listened._unsafeUnwrap());
    expect((await stat(join(directory, 'a.sock'))).mode & 0o777).toBe(0o600);
  });

  it('leaves only the socket in its directory, serves on it, and removes it on close', async () => {
    directory = await mkdtemp(join(tmpdir(), 'pi-ws-'));
    const path = join(directory, 'a.sock');
    const listener = (await listenWebSocket(host(), { socketPath: path }))._unsafeUnwrap();
    expect(await readdir(directory)).toEqual(['a.sock']);
    await expect(isSocketAnswering(path)).resolves.toBe(true);
    await listener.close();
    expect(await readdir(directory)).toEqual([]);
  });

  it('cannot listen in a directory that does not exist: listen_failed, as a value', async () => {
    directory = await mkdtemp(join(tmpdir(), 'pi-ws-'));
    const path = join(directory, 'missing', 'a.sock');
    const listened = await listenWebSocket(host(), { socketPath: path });
    expect(listened._unsafeUnwrapErr()).toEqual({ code: 'listen_failed', message: `Cannot listen on ${path}: ENOENT` });
  });

  it('a socket a live process answers on is address_in_use, as a value, and the first listener keeps serving', async () => {
    directory = await mkdtemp(join(tmpdir(), 'pi-ws-'));
    const path = join(directory, 'a.sock');
    listeners.push((await listenWebSocket(host(), { socketPath: path }))._unsafeUnwrap());
    const second = await listenWebSocket(host(), { socketPath: path });
    expect(second.isErr() && second.error.code).toBe('address_in_use');
    expect((await stat(path)).isSocket()).toBe(true);
  });

  it('a stale socket nobody answers on is replaced', async () => {
    directory = await mkdtemp(join(tmpdir(), 'pi-ws-'));
    const path = join(directory, 'a.sock');
    // A process killed while listening leaves its socket file behind.
    spawnSync(process.execPath, [
      '-e',
      `require('net').createServer().listen(${JSON.stringify(path)}, () => process.kill(process.pid, 'SIGKILL'))`,
    ]);
    expect((await stat(path)).isSocket()).toBe(true);
    const again = await listenWebSocket(host(), { socketPath: path });
    listeners.push(again._unsafeUnwrap());
    expect((await stat(path)).isSocket()).toBe(true);
  });

  it('a regular file in the way is never deleted: address_in_use', async () => {
    directory = await mkdtemp(join(tmpdir(), 'pi-ws-'));
    const path = join(directory, 'notes.txt');
    await writeFile(path, 'keep me');
    const result = await listenWebSocket(host(), { socketPath: path });
    expect(result.isErr() && result.error.code).toBe('address_in_use');
    expect(await readFile(path, 'utf8')).toBe('keep me');
  });
});

describe('a Unix socket replaced under its listener', () => {
  it('is left to the listener that bound it since: closing the old one removes only its own socket', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'pi-ws-'));
    const path = join(directory, 'a.sock');
    const old = (await listenWebSocket(host(), { socketPath: path }))._unsafeUnwrap();
    // The folder wiped under a running host (a runtime dir removed at logout), and another host started there.
    await rm(path);
    const current = (await listenWebSocket(host(), { socketPath: path }))._unsafeUnwrap();
    try {
      await old.close();
      await expect(isSocketAnswering(path)).resolves.toBe(true);
      await current.close();
      expect(await readdir(directory)).toEqual([]);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});

describe('a host that throws while accepting a connection', () => {
  it('closes that connection with 1011 and keeps serving the next one', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'pi-ws-'));
    const path = join(directory, 'a.sock');
    let calls = 0;
    const throwingOnce: Parameters<typeof listenWebSocket>[0] = {
      accept(socket) {
        calls += 1;
        if (calls === 1) throw new Error('a bug in accept');
        socket.close(1000, 'served');
      },
    };
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    const listener = (await listenWebSocket(throwingOnce, { socketPath: path }))._unsafeUnwrap();
    const closeCode = () =>
      new Promise<number>((resolve) => new WebSocket(`ws+unix://${path}:/`).on('close', (code) => resolve(code)));
    try {
      expect(await closeCode()).toBe(1011);
      expect(await closeCode()).toBe(1000);
      await new Promise((next) => setImmediate(next));
      expect(warnings.map((warning) => warning.message)).toContain('a bug in accept');
    } finally {
      process.off('warning', onWarning);
      await listener.close();
      await rm(directory, { recursive: true, force: true });
    }
  });
});
