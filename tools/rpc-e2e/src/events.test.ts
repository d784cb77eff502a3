import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  BACKGROUND_CONTEXT,
  createContextKey,
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
  type CatalogEvent,
  type HostCatalog,
  type ReconnectingCatalog,
  startReconnectingCatalog,
  type HostTransport,
  type RpcFixture,
} from '@pi/test-support';

const EMITTER_VALUE = createContextKey<string | undefined>('test.emitter-value', undefined);

describe.each(TRANSPORTS)('remote events over %s', (kind) => {
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

  it('every event reaches subscribe listeners in emission order', async () => {
    const remote = await (await fixture.connect()).use(Catalog);
    const heard: CatalogEvent[] = [];
    remote.events.subscribe((event) => heard.push(event));
    const emitted: CatalogEvent[] = Array.from({ length: 50 }, (_, index) => ({ type: 'refreshed', count: index }));
    for (const event of emitted) catalog.events.emit(event, BACKGROUND_CONTEXT);
    await eventually(() => heard.length === emitted.length);
    expect(heard).toEqual(emitted);
  });

  it('on(type) hears only events of that type, and its disposer stops exactly it', async () => {
    const remote = await (await fixture.connect()).use(Catalog);
    const selected: string[] = [];
    const refreshed: number[] = [];
    const stopSelected = remote.events.on('selected', (event) => selected.push(event.model.modelId));
    remote.events.on('refreshed', (event) => refreshed.push(event.count));
    await remote.select({ provider: 'local', modelId: 'small' }, BACKGROUND_CONTEXT);
    await remote.refresh(BACKGROUND_CONTEXT);
    await eventually(() => refreshed.length === 1);
    stopSelected();
    await remote.select({ provider: 'local', modelId: 'large' }, BACKGROUND_CONTEXT);
    await remote.refresh(BACKGROUND_CONTEXT);
    await eventually(() => refreshed.length === 2);
    expect(selected).toEqual(['small']);
    expect(refreshed).toEqual([2, 2]);
  });

  it('an event arrives after the state change made before it, so its listener reads the new state', async () => {
    const remote = await (await fixture.connect()).use(Catalog);
    const stateAtEvent: unknown[] = [];
    remote.events.on('selected', () => stateAtEvent.push(remote.state.value.selected));
    await remote.select({ provider: 'local', modelId: 'large' }, BACKGROUND_CONTEXT);
    await eventually(() => stateAtEvent.length === 1);
    expect(stateAtEvent).toEqual([{ provider: 'local', modelId: 'large' }]);
  });

  it('a listener that mutates an event cannot change what the next listener sees', async () => {
    vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const remote = await (await fixture.connect()).use(Catalog);
    const seen: CatalogEvent[] = [];
    remote.events.subscribe((event) => {
      (event as { type: string }).type = 'vandalised';
    });
    remote.events.subscribe((event) => seen.push(structuredClone(event)));
    catalog.events.emit({ type: 'refreshed', count: 1 }, BACKGROUND_CONTEXT);
    await eventually(() => seen.length === 1);
    expect(seen).toEqual([{ type: 'refreshed', count: 1 }]);
  });

  it('two clients each hear every event once', async () => {
    const first = await (await fixture.connect()).use(Catalog);
    const second = await (await fixture.connect()).use(Catalog);
    const heard: string[] = [];
    first.events.subscribe(() => heard.push('first'));
    second.events.subscribe(() => heard.push('second'));
    catalog.events.emit({ type: 'refreshed', count: 0 }, BACKGROUND_CONTEXT);
    await eventually(() => heard.length === 2);
    expect(heard.sort()).toEqual(['first', 'second']);
  });
});

describe.each(TRANSPORTS)('events across a reconnect over %s', (kind) => {
  let running: ReconnectingCatalog;
  let served: HostTransport;
  let client: RpcClient;
  let catalog: HostCatalog;
  beforeEach(async () => {
    running = await startReconnectingCatalog(kind);
    ({ served, client, catalog } = running);
  });
  afterEach(() => running.close());

  it('events emitted while disconnected are not replayed; the state snapshot catches the client up instead', async () => {
    const remote = await client.use(Catalog);
    const heard: CatalogEvent[] = [];
    remote.events.subscribe((event) => heard.push(event));
    await served.stop();
    await nextValue(client.connection, (state) => state.status === 'disconnected');
    catalog.events.emit({ type: 'refreshed', count: 99 }, BACKGROUND_CONTEXT);
    catalog.state.set({ ...catalog.state.value, refresh: 'done' }, BACKGROUND_CONTEXT);
    await served.restore();
    await nextValue(remote.state, (value) => value.refresh === 'done');
    catalog.events.emit({ type: 'refreshed', count: 1 }, BACKGROUND_CONTEXT);
    await eventually(() => heard.length > 0);
    expect(heard).toEqual([{ type: 'refreshed', count: 1 }]);
  });
});

describe.each(TRANSPORTS)('event delivery contexts over %s', (kind) => {
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

  it("an event listener runs under a context rebuilt from the emitter's span, without its values", async () => {
    const remote = await (await fixture.connect()).use(Catalog);
    const contexts: Context[] = [];
    remote.events.on('refreshed', (_event, context) => contexts.push(context));
    const emitter = BACKGROUND_CONTEXT.telemetryContext.startSpan({ name: 'host.catalog.poll' }, (span) => {
      catalog.events.emit(
        { type: 'refreshed', count: 3 },
        withContextValue(EMITTER_VALUE, 'host-only', withTelemetryContext(span, BACKGROUND_CONTEXT)),
      );
      return span;
    });
    await eventually(() => contexts.length === 1);
    expect(emitter.traceId).toEqual(expect.any(String));
    expect(contexts[0]?.telemetryContext.traceId).toBe(emitter.traceId);
    expect(contexts[0]?.telemetryContext.spanId).toBe(emitter.spanId);
    expect(contexts[0]?.value(EMITTER_VALUE)).toBeUndefined();
    expect(contexts[0]?.abortSignal).toBeUndefined();
  });

  it("an event caused by a client's call carries that call's trace to every client", async () => {
    const caller = await (await fixture.connect()).use(Catalog);
    const watcher = await (await fixture.connect()).use(Catalog);
    const contexts: Context[] = [];
    watcher.events.on('selected', (_event, context) => contexts.push(context));
    const span = await BACKGROUND_CONTEXT.telemetryContext.startSpan({ name: 'ui.model.pick' }, async (active) => {
      await caller.select({ provider: 'local', modelId: 'small' }, withTelemetryContext(active, BACKGROUND_CONTEXT));
      return active;
    });
    await eventually(() => contexts.length === 1);
    expect(contexts[0]?.telemetryContext.traceId).toBe(span.traceId);
  });
});
