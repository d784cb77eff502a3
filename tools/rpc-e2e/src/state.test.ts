import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { THINKING_LEVELS } from '@pi/agent-contract';
import {
  BACKGROUND_CONTEXT,
  createContextKey,
  withAbortSignal,
  withContextValue,
  withTelemetryContext,
  type Context,
} from '@pi/context';
import { installInMemoryTelemetry, type InMemoryTelemetry } from '@pi/context/testing';
import type { RpcClient } from '@pi/transport-trpc';
import {
  Catalog,
  TRANSPORTS,
  createCatalog,
  eventually,
  nextValue,
  startRpcFixture,
  type CatalogState,
  type HostTransport,
  type HostCatalog,
  type ReconnectingCatalog,
  startReconnectingCatalog,
  type RpcFixture,
} from '@pi/test-support';

const SETTER_VALUE = createContextKey<string | undefined>('test.setter-value', undefined);

/** Consecutive writes that always differ, so none is suppressed as unchanged. */
function levelWriter(catalog: HostCatalog): () => void {
  let count = 0;
  return () => {
    count += 1;
    catalog.state.set(
      { ...catalog.state.value, thinkingLevel: THINKING_LEVELS[count % THINKING_LEVELS.length] ?? 'off' },
      BACKGROUND_CONTEXT,
    );
  };
}

function consecutive(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, index) => from + index);
}

const macrotask = () => new Promise<void>((resolve) => setImmediate(resolve));

describe.each(TRANSPORTS)('replicated state over %s', (kind) => {
  let fixture: RpcFixture;
  let catalog: HostCatalog;
  beforeEach(async () => {
    catalog = createCatalog();
    fixture = await startRpcFixture(kind, { provide: (registry) => registry.provide(Catalog, catalog) });
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await fixture.close();
  });

  it('a snapshot installed while updates race in leaves no gap and no duplicate', async () => {
    const client = await fixture.connect();
    const write = levelWriter(catalog);
    const using = client.use(Catalog);
    write(); // in the same tick as the subscription request
    let hydrated = false;
    void using.then(() => (hydrated = true));
    let writesAfterHydration = 0;
    const writing = (async () => {
      while (writesAfterHydration < 30) {
        await macrotask();
        write();
        if (hydrated) writesAfterHydration += 1;
      }
    })();
    const remote = await using;
    const revisions: number[] = [];
    remote.state.subscribe(() => revisions.push(remote.state.revision));
    await writing;
    await eventually(() => remote.state.revision === catalog.state.revision);
    expect(remote.state.value).toEqual(catalog.state.value);
    expect(revisions).toEqual(consecutive(revisions[0] ?? -1, catalog.state.revision));
  });

  it('a burst of updates arrives complete and in order, ending at the final value', async () => {
    const remote = await (await fixture.connect()).use(Catalog);
    const seen: Array<{ revision: number; level: CatalogState['thinkingLevel'] }> = [];
    remote.state.subscribe((value) => seen.push({ revision: remote.state.revision, level: value.thinkingLevel }));
    const write = levelWriter(catalog);
    const expected: Array<{ revision: number; level: CatalogState['thinkingLevel'] }> = [];
    for (let count = 0; count < 200; count++) {
      write();
      expected.push({ revision: catalog.state.revision, level: catalog.state.value.thinkingLevel });
    }
    await eventually(() => remote.state.revision === catalog.state.revision);
    expect(seen.slice(1)).toEqual(expected);
    expect(remote.state.value).toEqual(catalog.state.value);
  });

  it('a server write of an equal value sends nothing and leaves the revision alone', async () => {
    const remote = await (await fixture.connect()).use(Catalog);
    const heard: CatalogState[] = [];
    remote.state.subscribe((value) => heard.push(value));
    catalog.state.set({ ...catalog.state.value }, BACKGROUND_CONTEXT);
    await remote.cycleThinking(BACKGROUND_CONTEXT);
    await nextValue(remote.state, (value) => value.thinkingLevel === 'off');
    expect(heard.map((value) => value.thinkingLevel)).toEqual(['high', 'off']);
    expect(remote.state.revision).toBe(1);
  });

  it('a client listener that mutates its value cannot change what another listener or .value sees', async () => {
    vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const remote = await (await fixture.connect()).use(Catalog);
    const seenByOther: CatalogState[] = [];
    remote.state.subscribe((value) => {
      (value as { thinkingLevel: string }).thinkingLevel = 'vandalised';
    });
    remote.state.subscribe((value) => seenByOther.push(structuredClone(value)));
    await remote.select({ provider: 'local', modelId: 'large' }, BACKGROUND_CONTEXT);
    await nextValue(remote.state, (value) => value.selected !== null);
    expect(seenByOther.map((value) => value.thinkingLevel)).toEqual(['high', 'high']);
    expect(remote.state.value.thinkingLevel).toBe('high');
    expect(catalog.state.value.thinkingLevel).toBe('high');
  });

  it('while disconnected the replica keeps the stale value and the connection says disconnected', async () => {
    const client = await fixture.connect({ reconnect: false });
    const remote = await client.use(Catalog);
    fixture.dropConnections();
    await nextValue(client.connection, (state) => state.status === 'disconnected');
    catalog.state.set({ ...catalog.state.value, thinkingLevel: 'low' }, BACKGROUND_CONTEXT);
    const immediate: CatalogState[] = [];
    remote.state.subscribe((value) => immediate.push(value));
    expect(remote.state.value.thinkingLevel).toBe('high');
    expect(immediate.map((value) => value.thinkingLevel)).toEqual(['high']);
    expect(client.connection.value).toMatchObject({
      status: 'disconnected',
      retrying: false,
      reason: { code: 'disconnected' },
    });
  });

  it('subscribing and releasing, then disconnecting, leave no subscription on the server', async () => {
    const client = await fixture.connect();
    expect(fixture.stats()).toEqual([{ activeCalls: 0, subscriptions: 0, references: 0 }]);
    const lease = await client.acquire(Catalog);
    expect(fixture.stats()).toEqual([{ activeCalls: 0, subscriptions: 1, references: 0 }]);
    lease.release();
    await eventually(() => fixture.stats()[0]?.subscriptions === 0);
    await client.use(Catalog);
    await eventually(() => fixture.stats()[0]?.subscriptions === 1);
    fixture.dropConnections();
    await eventually(() => fixture.stats().every((stats) => stats.subscriptions === 0));
    client.close();
    await eventually(() => fixture.stats().length === 0);
  });
});

describe.each(TRANSPORTS)('state after a reconnect over %s', (kind) => {
  let running: ReconnectingCatalog;
  let served: HostTransport;
  let client: RpcClient;
  let catalog: HostCatalog;
  beforeEach(async () => {
    running = await startReconnectingCatalog(kind);
    ({ served, client, catalog } = running);
  });
  afterEach(() => running.close());

  it('reconnect replaces stale state with a fresh snapshot of what changed while down', async () => {
    const remote = await client.use(Catalog);
    const heard: CatalogState[] = [];
    remote.state.subscribe((value) => heard.push(value));
    await served.stop();
    await nextValue(client.connection, (state) => state.status === 'disconnected');
    catalog.state.set({ ...catalog.state.value, thinkingLevel: 'low' }, BACKGROUND_CONTEXT);
    catalog.state.set(
      { ...catalog.state.value, selected: { provider: 'local', modelId: 'small' } },
      BACKGROUND_CONTEXT,
    );
    expect(remote.state.value.thinkingLevel).toBe('high');
    expect(client.connection.value.status).not.toBe('connected');

    await served.restore();
    await nextValue(remote.state, (value) => value.selected !== null);
    expect(remote.state.value).toEqual(catalog.state.value);
    expect(remote.state.revision).toBe(catalog.state.revision);
    expect(heard.map((value) => value.thinkingLevel)).toEqual(['high', 'low']);
    expect(client.connection.value).toEqual({ status: 'connected', epoch: 2 });
    expect(running.fixture.stats().map((stats) => stats.subscriptions)).toEqual([1]);
  });

  it('updates after a reconnect keep flowing in order', async () => {
    const remote = await client.use(Catalog);
    await served.stop();
    await nextValue(client.connection, (state) => state.status === 'disconnected');
    await served.restore();
    await nextValue(client.connection, (state) => state.status === 'connected');
    const write = levelWriter(catalog);
    for (let count = 0; count < 20; count++) write();
    await eventually(() => remote.state.revision === catalog.state.revision);
    expect(remote.state.value).toEqual(catalog.state.value);
  });
});

describe.each(TRANSPORTS)('state delivery contexts over %s', (kind) => {
  let telemetry: InMemoryTelemetry;
  let fixture: RpcFixture;
  let catalog: HostCatalog;
  beforeEach(async () => {
    telemetry = installInMemoryTelemetry();
    catalog = createCatalog();
    fixture = await startRpcFixture(kind, { provide: (registry) => registry.provide(Catalog, catalog) });
  });
  afterEach(async () => {
    await fixture.close();
    telemetry.uninstall();
  });

  it("a delivery runs under a context rebuilt from the server-side setter's span, without its signal or values", async () => {
    const remote = await (await fixture.connect()).use(Catalog);
    const contexts: Context[] = [];
    remote.state.subscribe((_value, context) => contexts.push(context));
    const setter = BACKGROUND_CONTEXT.telemetryContext.startSpan({ name: 'host.models.write' }, (span) => {
      const context = withContextValue(
        SETTER_VALUE,
        'host-only',
        withAbortSignal(new AbortController().signal, withTelemetryContext(span, BACKGROUND_CONTEXT)),
      );
      catalog.state.set({ ...catalog.state.value, refresh: 'done' }, context);
      return span;
    });
    await nextValue(remote.state, (value) => value.refresh === 'done');
    const delivery = contexts[1];
    expect(setter.traceId).toEqual(expect.any(String));
    expect(delivery?.telemetryContext.traceId).toBe(setter.traceId);
    expect(delivery?.telemetryContext.spanId).toBe(setter.spanId);
    expect(delivery?.abortSignal).toBeUndefined();
    expect(delivery?.value(SETTER_VALUE)).toBeUndefined();
  });

  it("a change made by a client's call is delivered under that call's trace", async () => {
    const remote = await (await fixture.connect()).use(Catalog);
    const contexts: Context[] = [];
    remote.state.subscribe((_value, context) => contexts.push(context));
    const caller = await BACKGROUND_CONTEXT.telemetryContext.startSpan({ name: 'ui.thinking.cycle' }, async (span) => {
      await remote.cycleThinking(withTelemetryContext(span, BACKGROUND_CONTEXT));
      return span;
    });
    await eventually(() => contexts.length === 2);
    const serverSpan = telemetry.spans().find((span) => span.name === 'rpc.server catalog.cycleThinking');
    expect(contexts[1]?.telemetryContext.traceId).toBe(caller.traceId);
    expect(contexts[1]?.telemetryContext.spanId).toBe(serverSpan?.spanId);
  });

  it('the immediate subscribe callback runs under the hydration context, not the source of the value', async () => {
    const setter = BACKGROUND_CONTEXT.telemetryContext.startSpan({ name: 'host.models.write' }, (span) => {
      catalog.state.set(
        { ...catalog.state.value, thinkingLevel: 'low' },
        withTelemetryContext(span, BACKGROUND_CONTEXT),
      );
      return span;
    });
    const opener = BACKGROUND_CONTEXT.telemetryContext.startSpan({ name: 'ui.picker.open' }, (span) => span);
    const remote = await (await fixture.connect()).use(Catalog, withTelemetryContext(opener, BACKGROUND_CONTEXT));
    const contexts: Context[] = [];
    remote.state.subscribe((_value, context) => contexts.push(context));
    const hydration = telemetry.spans().find((span) => span.name === 'rpc.hydrate catalog');
    expect(hydration?.parentSpanId).toBe(opener.spanId);
    expect(contexts).toHaveLength(1);
    expect(contexts[0]?.telemetryContext.traceId).toBe(opener.traceId);
    expect(contexts[0]?.telemetryContext.spanId).toBe(hydration?.spanId);
    expect(contexts[0]?.telemetryContext.traceId).not.toBe(setter.traceId);
  });
});
