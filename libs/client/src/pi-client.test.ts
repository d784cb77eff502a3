import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT, withAbortSignal } from '@pi/context';
import { ServiceRegistry, type WatchFrame } from '@pi/remote';
import { Catalog, Probe, createCatalog, createProbe, eventually, remoteErrorOf } from '@pi/test-support';
import { createRpcHost, listenWebSocket, tokenAuthentication, type WebSocketListener } from '@pi/transport-trpc';
import { connect } from './connect';
import type { PiClient } from './pi-client';

const TOKEN = 'generic-token';
let listener: WebSocketListener | undefined;
let directory: string | undefined;
let client: PiClient | undefined;

afterEach(async () => {
  client?.close();
  await listener?.close();
  if (directory !== undefined) await rm(directory, { recursive: true, force: true });
});

async function connected(): Promise<PiClient> {
  directory = await mkdtemp(join(tmpdir(), 'pi-generic-'));
  const registry = new ServiceRegistry();
  registry.provide(Catalog, createCatalog());
  registry.provide(Probe, createProbe());
  const host = createRpcHost({ registry, authenticate: tokenAuthentication(TOKEN, { principal: 'tool', claims: {} }) });
  const socketPath = join(directory, 'host.sock');
  listener = (await listenWebSocket(host, { socketPath }))._unsafeUnwrap();
  client = (await connect({ socketPath, token: TOKEN, reconnect: false }))._unsafeUnwrap();
  return client;
}

describe('calls and watches by name', () => {
  it('calls a method by name and answers { value } or {} for void', async () => {
    const pi = await connected();
    expect(pi.session).toBeNull();
    expect(await pi.call('catalog', 'refresh', [])).toEqual({ value: 2 });
    expect(await pi.call('catalog', 'select', [{ provider: 'local', modelId: 'small' }])).toEqual({});
  });

  it('names what exists when the service or method is unknown, before sending anything', async () => {
    const pi = await connected();
    const service = await remoteErrorOf(pi.call('nope', 'x', []));
    expect(service).toMatchObject({ code: 'unknown_service', data: { services: ['catalog', 'probe'] } });
    expect(service.message).toBe('Unknown service "nope"; this host serves: catalog, probe');
    const method = await remoteErrorOf(pi.call('catalog', 'nope', []));
    expect(method).toMatchObject({
      code: 'unknown_member',
      data: { service: 'catalog', methods: ['select', 'cycleThinking', 'refresh'] },
    });
    const arity = await remoteErrorOf(pi.call('catalog', 'select', []));
    expect(arity).toMatchObject({ code: 'invalid_argument', message: 'catalog.select takes 1 argument(s), got 0' });
    expect((await remoteErrorOf(pi.watch('nope', { next: () => undefined, error: () => undefined }))).code).toBe(
      'unknown_service',
    );
  });

  it("passes the host's own refusal of a bad value and a service's own code through", async () => {
    const pi = await connected();
    expect((await remoteErrorOf(pi.call('catalog', 'select', ['small']))).code).toBe('invalid_argument');
    const unknown = await remoteErrorOf(pi.call('catalog', 'select', [{ provider: 'x', modelId: 'y' }]));
    expect(unknown.code).toBe('unknown_model');
  });

  it('watches a service by name: the snapshot, then changes and events', async () => {
    const pi = await connected();
    const frames: WatchFrame[] = [];
    const stop = await pi.watch('catalog', { next: (frame) => frames.push(frame), error: () => undefined });
    await eventually(() => frames.length === 1);
    await pi.call('catalog', 'cycleThinking', []);
    await eventually(() => frames.length === 2);
    stop();
    expect(frames[0]).toMatchObject({ kind: 'snapshot', state: { state: { value: { thinkingLevel: 'high' } } } });
    expect(frames[1]).toMatchObject({ kind: 'state', cell: 'state', value: { thinkingLevel: 'off' } });
  });

  it('asks for the description once per connection, and a cancelled wait fails only its caller', async () => {
    const pi = await connected();
    const first = pi.describe();
    const controller = new AbortController();
    const cancelled = pi.describe(withAbortSignal(controller.signal, BACKGROUND_CONTEXT));
    controller.abort();
    expect((await remoteErrorOf(cancelled)).code).toBe('cancelled');
    expect(await first).toBe(await pi.describe());
    expect((await first).services.map((service) => service.id)).toEqual(['catalog', 'probe']);
  });
});
