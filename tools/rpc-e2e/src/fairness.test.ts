import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BACKGROUND_CONTEXT, type Context } from '@pi/context';
import { defineRemoteService } from '@pi/remote';
import { DEFAULT_CONNECTION_LIMITS } from '@pi/transport-trpc';
import { FIXTURE_TOKEN, TRANSPORTS, startRpcFixture, type RpcFixture } from '@pi/test-support';
import { serveRawSockets, type RawSocketServer } from './raw-socket';

/** Counts the requests the host has started: each `tick`, and `observe` reads the count. */
interface Counter {
  tick(context: Context): Promise<number>;
  observe(context: Context): Promise<number>;
}

const Counter = defineRemoteService<Counter>('counter', {
  methods: { tick: { args: [], result: z.number() }, observe: { args: [], result: z.number() } },
  state: {},
  events: {},
});

const FLOOD = 10_000;
const PARAMS = JSON.stringify({ method: 'connectionParams', data: { token: FIXTURE_TOKEN } });
/** `$rpc.hello` with id 0: its answer says the connection is authenticated. */
const HELLO = JSON.stringify({ id: 0, method: 'mutation', params: { path: '$rpc.hello', input: { json: null } } });

/** One frame of `FLOOD` calls, as a stock tRPC client batches the calls it makes at once. */
function floodFrame(): string {
  const calls: string[] = [];
  for (let id = 1; id <= FLOOD; id++)
    calls.push(
      `{"id":${id},"method":"mutation","params":{"path":"counter.tick","input":{"json":{"a":[],"c":"t${id}"}}}}`,
    );
  return `[${calls.join(',')}]`;
}

describe.each(TRANSPORTS)('fairness between connections over %s', (kind) => {
  let fixture: RpcFixture;
  let raw: RawSocketServer;
  afterEach(async () => {
    await raw.close();
    await fixture.close();
  });

  it("answers another connection's call before a flooding connection's 10,000 requests are all handled", async () => {
    let ticks = 0;
    let onFirstTick: () => void = () => undefined;
    fixture = await startRpcFixture(kind, {
      // Every flooded call runs (none is refused for being one too many in flight), so only the order is measured.
      limits: { maxInFlightCalls: 2 * FLOOD },
      provide: (registry) =>
        registry.provide(Counter, {
          tick: async () => {
            ticks += 1;
            if (ticks === 1) onFirstTick();
            return ticks;
          },
          observe: async () => ticks,
        }),
    });
    const counter = await (await fixture.connect()).use(Counter);
    raw = await serveRawSockets(kind, fixture.host);
    const flooder = raw.open();
    await flooder.opened;
    flooder.sendText(PARAMS);
    flooder.sendText(HELLO);
    await flooder.until((frame) => frame.startsWith('{"id":0,'));

    // The bystander's call leaves once the host has begun the flood, from inside its first request.
    const observed = new Promise<number>((resolve) => {
      onFirstTick = () => void counter.observe(BACKGROUND_CONTEXT).then(resolve);
    });
    flooder.sendText(floodFrame());

    const handledBefore = await observed;
    expect(handledBefore).toBeLessThan(FLOOD);
    // Started at once, or after a turn or two of the flood's share: bounded by the share, not by the flood.
    expect(handledBefore).toBeLessThanOrEqual(4 * DEFAULT_CONNECTION_LIMITS.requestsPerTurn);
    // And the flood loses nothing: every request is answered.
    await flooder.until((frame) => frame.includes(`"id":${FLOOD},`));
    expect(ticks).toBe(FLOOD);
  });
});
