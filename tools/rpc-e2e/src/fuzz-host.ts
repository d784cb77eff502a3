import { expect } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { jsonEquals, type AuthoritativeEvents, type AuthoritativeState, type JsonValue } from '@pi/remote';
import type { RpcClient } from '@pi/transport-trpc';
import {
  Ask,
  Catalog,
  Index,
  Probe,
  createCatalog,
  createIndex,
  createProbe,
  eventually,
  startRpcFixture,
  type CatalogEvent,
  type CatalogService,
  type CatalogState,
  type ProbeService,
  type RpcFixture,
  type TransportKind,
} from '@pi/test-support';

/**
 * The host a fuzz suite attacks, and the well-behaved client that stays connected throughout: Probe, Catalog
 * (counting the watchers on its state and events) and Index, plus checks that the host holds exactly what it
 * held before the attack and that the bystander is served as if nothing happened.
 */
export interface FuzzHost {
  readonly fixture: RpcFixture;
  readonly catalog: ReturnType<typeof createCatalog>;
  readonly index: ReturnType<typeof createIndex>;
  readonly bystander: { readonly client: RpcClient; readonly probe: ProbeService; readonly catalog: CatalogService };
  /** Live observers on the catalog's state and events (each watch holds one of each). */
  observers(): number;
  /** The bystander gets its echo back, sees its own state change replicate and its own event arrive. */
  bystanderRound(round: number): Promise<void>;
  /** Waits until the host holds what it held with only the bystander connected; fails naming what differs. */
  backToBaseline(): Promise<void>;
  /** What the bystander holds now (a reference, a call in flight) becomes the baseline. */
  rebase(): void;
  /** A client that connects now is served. */
  freshClientIsServed(): Promise<void>;
  close(): Promise<void>;
}

export async function startFuzzHost(kind: TransportKind, options: { maxPayload?: number } = {}): Promise<FuzzHost> {
  const catalog = createCatalog();
  const index = createIndex();
  const observers = countObservers(catalog);
  const fixture = await startRpcFixture(kind, {
    maxPayload: options.maxPayload,
    provide: (registry) => {
      registry.provide(Probe, createProbe());
      registry.provide(Catalog, catalog);
      registry.provide(Index, index);
    },
  });
  const client = await fixture.connect({ reconnect: false });
  const bystander = { client, probe: await client.use(Probe), catalog: await client.use(Catalog) };
  let refreshedEvents = 0;
  bystander.catalog.events.on('refreshed', () => void (refreshedEvents += 1));
  const baseline = { stats: fixture.stats(), observers: observers() };

  const snapshot = () => ({
    stats: fixture.stats(),
    observers: observers(),
    handlers: fixture.broker.eligibleClients(Ask.id),
    pending: fixture.broker.pendingCount,
  });
  let expected = { ...baseline, handlers: [] as string[], pending: 0 };
  return {
    fixture,
    catalog,
    index,
    bystander,
    observers,
    async bystanderRound(round) {
      expect(await bystander.probe.echo({ round, text: `round ${round}` }, BACKGROUND_CONTEXT)).toEqual({
        round,
        text: `round ${round}`,
      });
      const eventsBefore = refreshedEvents;
      await bystander.catalog.cycleThinking(BACKGROUND_CONTEXT);
      expect(await bystander.catalog.refresh(BACKGROUND_CONTEXT)).toBe(2);
      await eventually(
        () =>
          refreshedEvents > eventsBefore &&
          jsonEquals(
            bystander.catalog.state.value as unknown as JsonValue,
            catalog.state.value as unknown as JsonValue,
          ),
      );
      expect(client.connection.value.status).toBe('connected');
    },
    async backToBaseline() {
      await eventually(() => jsonEquals(snapshot() as unknown as JsonValue, expected as unknown as JsonValue)).catch(
        () => {
          throw new Error(
            `The host did not return to its baseline: ${JSON.stringify(snapshot())}, expected ${JSON.stringify(expected)}`,
          );
        },
      );
    },
    rebase() {
      expected = snapshot();
    },
    async freshClientIsServed() {
      const fresh = await fixture.connect({ reconnect: false });
      try {
        expect(await (await fresh.use(Probe)).echo('fresh', BACKGROUND_CONTEXT)).toBe('fresh');
      } finally {
        fresh.close();
      }
    },
    close: () => fixture.close(),
  };
}

/** Wraps the catalog's `observe` feeds so a test can see how many watches are attached to it. */
function countObservers(catalog: ReturnType<typeof createCatalog>): () => number {
  let live = 0;
  const counted = (stop: () => void) => {
    live += 1;
    let stopped = false;
    return () => {
      if (!stopped) live -= 1;
      stopped = true;
      stop();
    };
  };
  // The fixture's catalog is built from createRemoteState/createRemoteEvents, whose objects carry the feeds.
  const state = catalog.state as AuthoritativeState<CatalogState>;
  const events = catalog.events as AuthoritativeEvents<CatalogEvent>;
  const observeState = state.observe.bind(state);
  const observeEvents = events.observe.bind(events);
  state.observe = (observer) => counted(observeState(observer));
  events.observe = (observer) => counted(observeEvents(observer));
  return () => live;
}
