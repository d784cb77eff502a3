import { afterEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { checkJson, type JsonValue, type WatchFrame } from '@pi/remote';
import {
  Ask,
  Catalog,
  Index,
  Probe,
  TRANSPORTS,
  Vault,
  createCatalog,
  createIndex,
  createProbe,
  eventually,
  remoteErrorOf,
  startRpcFixture,
  type RpcFixture,
} from '@pi/test-support';

/** The data of the one result frame that answered `$rpc.describe`, exactly as it crossed the wire. */
function describeAnswer(fixture: RpcFixture): unknown {
  const request = fixture.frames.sent
    .map((text) => JSON.parse(text))
    .find((frame) => frame?.params?.path === '$rpc.describe');
  const answer = fixture.frames.received
    .map((text) => JSON.parse(text))
    .find((frame) => frame?.id === request?.id && frame?.result?.type === 'data');
  return answer?.result?.data;
}

describe.each(TRANSPORTS)('a host describes itself over %s', (kind) => {
  let fixture: RpcFixture;
  afterEach(() => fixture.close());

  async function start() {
    fixture = await startRpcFixture(kind, {
      provide: (registry) => {
        registry.provide(Catalog, createCatalog());
        registry.provide(Probe, createProbe());
        registry.provide(Index, createIndex());
        registry.provide(Vault, { secret: () => 'local only' });
      },
    });
    return fixture.connect();
  }

  it('lists its remote services with JSON Schemas, never a local one, as strict JSON', async () => {
    const client = await start();
    fixture.broker.declare(Ask);
    const description = await client.describe();

    expect(description.services.map((service) => service.id)).toEqual(['catalog', 'index', 'probe']);
    const catalog = description.services.find((service) => service.id === 'catalog');
    expect(Object.keys(catalog?.methods ?? {})).toEqual(['select', 'cycleThinking', 'refresh']);
    expect(catalog?.methods['select']?.args[0]).toMatchObject({ type: 'object', required: ['provider', 'modelId'] });
    expect(catalog?.methods['refresh']?.result).toEqual({
      kind: 'value',
      schema: expect.objectContaining({ type: 'integer' }),
    });
    expect(catalog?.methods['cycleThinking']?.result).toEqual({ kind: 'void' });
    expect(catalog?.state['state']).toMatchObject({ type: 'object' });
    expect(catalog?.events['events']).toHaveProperty('oneOf');
    expect(description.interactions.map((interaction) => interaction.id)).toEqual(['ask']);

    const wire = describeAnswer(fixture);
    expect(wire).toEqual({ json: description });
    expect(checkJson(wire).isOk()).toBe(true);
    expect(JSON.stringify(wire)).not.toContain('vault');
  });

  it('describes a remote result as a reference with its own exposure', async () => {
    const client = await start();
    const index = (await client.describe()).services.find((service) => service.id === 'index');
    const result = index?.methods['start']?.result;
    expect(result?.kind).toBe('remote');
    const exposure = result?.kind === 'remote' ? result.exposure : null;
    expect(Object.keys(exposure?.methods ?? {})).toEqual(['wait', 'cancel', 'advance']);
    expect(exposure?.methods['advance']?.args).toEqual([expect.objectContaining({ type: 'integer', minimum: 0 })]);
    expect(Object.keys(exposure?.state ?? {})).toEqual(['progress']);
  });

  it('lists an interaction nobody declared once the host has requested it', async () => {
    const client = await start();
    expect((await client.describe()).interactions).toEqual([]);
    await fixture.broker.request(Ask, { question: 'Go?', options: ['yes'] }, BACKGROUND_CONTEXT).catch(() => undefined);
    expect((await client.describe()).interactions.map((interaction) => interaction.id)).toEqual(['ask']);
  });

  it('serves calls and watches by name, with the same stable codes as typed proxies', async () => {
    const client = await start();
    expect(await client.invoke('catalog', 'refresh', [])).toEqual({ value: 2 });
    expect(await client.invoke('catalog', 'cycleThinking', [])).toEqual({});
    expect(await client.invoke('probe', 'echo', [{ a: [1, null] }])).toEqual({ value: { a: [1, null] } });
    expect((await client.invoke('index', 'start', ['/src'])).ref).toEqual(expect.any(String));
    expect((await remoteErrorOf(client.invoke('catalog', 'select', ['bad']))).code).toBe('invalid_argument');
    expect((await remoteErrorOf(client.invoke('nope', 'x', []))).code).toBe('unknown_service');
    expect((await remoteErrorOf(client.invoke('catalog', 'nope', []))).code).toBe('unknown_member');
    expect((await remoteErrorOf(client.invoke('vault', 'secret', []))).code).toBe('unknown_service');
    const notJson = await remoteErrorOf(client.invoke('probe', 'echo', [[undefined as unknown as JsonValue]]));
    expect(notJson).toMatchObject({ code: 'invalid_argument', data: { reason: 'not_json', kind: 'undefined' } });

    const frames: WatchFrame[] = [];
    const stop = client.watchFrames('catalog', { next: (frame) => frames.push(frame), error: () => undefined });
    await eventually(() => frames.length === 1);
    await client.invoke('catalog', 'select', [{ provider: 'local', modelId: 'small' }]);
    await eventually(() => frames.length === 3);
    stop();
    expect(frames.map((frame) => frame.kind)).toEqual(['snapshot', 'state', 'event']);
    expect(frames[2]).toMatchObject({ stream: 'events', event: { type: 'selected' } });

    const ended: string[] = [];
    client.watchFrames('nope', { next: () => undefined, error: (error) => ended.push(error.code) });
    await eventually(() => ended.length === 1);
    expect(ended).toEqual(['unknown_service']);
  });
});
