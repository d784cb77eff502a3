import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import {
  Catalog,
  TRANSPORTS,
  createCatalog,
  eventually,
  nextValue,
  remoteErrorOf,
  startRpcFixture,
  type HostCatalog,
  type RpcFixture,
  abortableContext,
} from '@pi/test-support';

/** Subscription frames a client sent for the catalog's watch, as tRPC frames carry them. */
function catalogWatchFrames(fixture: RpcFixture): string[] {
  return fixture.frames.sent.filter(
    (frame) => frame.includes('"method":"subscription"') && frame.includes('"catalog.$watch"'),
  );
}

describe.each(TRANSPORTS)('shared proxies over %s', (kind) => {
  let fixture: RpcFixture;
  let catalog: HostCatalog;
  beforeEach(async () => {
    catalog = createCatalog();
    fixture = await startRpcFixture(kind, { provide: (registry) => registry.provide(Catalog, catalog) });
  });
  afterEach(() => fixture.close());

  it('a connected client holds no subscription until a service is used', async () => {
    const client = await fixture.connect();
    expect(fixture.stats()).toEqual([{ activeCalls: 0, subscriptions: 0, references: 0 }]);
    expect(client.activeServices).toBe(0);
  });

  it('concurrent consumers of one token share one proxy, one replica and one subscription', async () => {
    const client = await fixture.connect();
    const [first, second, lease] = await Promise.all([
      client.use(Catalog),
      client.use(Catalog),
      client.acquire(Catalog),
    ]);
    expect(second).toBe(first);
    expect(lease.service).toBe(first);
    expect(second.state).toBe(first.state);
    expect(second.events).toBe(first.events);
    expect(fixture.stats()).toEqual([{ activeCalls: 0, subscriptions: 1, references: 0 }]);
    expect(catalogWatchFrames(fixture)).toHaveLength(1);
    expect(client.activeServices).toBe(1);
  });

  it('releasing the last lease ends the subscription, and only the last', async () => {
    const client = await fixture.connect();
    const first = await client.acquire(Catalog);
    const second = await client.acquire(Catalog);
    first.release();
    first.release();
    catalog.state.set({ ...catalog.state.value, refresh: 'done' }, BACKGROUND_CONTEXT);
    await nextValue(second.service.state, (value) => value.refresh === 'done');
    expect(fixture.stats()[0]?.subscriptions).toBe(1);
    second.release();
    await eventually(() => fixture.stats()[0]?.subscriptions === 0);
    expect(client.activeServices).toBe(0);
  });

  it('using a token again after its last release subscribes afresh, with current state', async () => {
    const client = await fixture.connect();
    const lease = await client.acquire(Catalog);
    lease.release();
    catalog.state.set({ ...catalog.state.value, thinkingLevel: 'low' }, BACKGROUND_CONTEXT);
    const again = await client.acquire(Catalog);
    expect(again.service).not.toBe(lease.service);
    expect(again.service.state.value.thinkingLevel).toBe('low');
    expect(lease.service.state.value.thinkingLevel).toBe('high');
    expect(catalogWatchFrames(fixture)).toHaveLength(2);
    await eventually(() => fixture.stats()[0]?.subscriptions === 1);
  });

  it('each connection has its own subscription', async () => {
    const first = await fixture.connect();
    const second = await fixture.connect();
    await Promise.all([first.use(Catalog), second.use(Catalog), second.use(Catalog)]);
    expect(fixture.stats().map((stats) => stats.subscriptions)).toEqual([1, 1]);
  });

  it("one consumer giving up while the proxy hydrates fails only its own use, not another consumer's", async () => {
    const client = await fixture.connect();
    const quitter = abortableContext();
    const abandoned = remoteErrorOf(client.acquire(Catalog, quitter.context));
    const patient = client.acquire(Catalog);
    quitter.controller.abort();
    expect((await abandoned).code).toBe('cancelled');
    const lease = await patient;
    await lease.service.cycleThinking(BACKGROUND_CONTEXT);
    expect((await nextValue(lease.service.state, (value) => value.thinkingLevel === 'off')).thinkingLevel).toBe('off');
    expect(fixture.stats()[0]?.subscriptions).toBe(1);
  });

  it('aborting the context a proxy was used with, after it resolved, keeps the subscription live', async () => {
    const client = await fixture.connect();
    const user = abortableContext();
    const remote = await client.use(Catalog, user.context);
    user.controller.abort();
    catalog.state.set({ ...catalog.state.value, refresh: 'refreshing' }, BACKGROUND_CONTEXT);
    await nextValue(remote.state, (value) => value.refresh === 'refreshing');
    expect(fixture.stats()[0]?.subscriptions).toBe(1);
  });

  it('closing the client ends its subscriptions on the server', async () => {
    const client = await fixture.connect();
    await client.use(Catalog);
    const other = await fixture.connect();
    await other.use(Catalog);
    client.close();
    await eventually(() => fixture.stats().length === 1);
    expect(fixture.stats()).toEqual([{ activeCalls: 0, subscriptions: 1, references: 0 }]);
  });
});
