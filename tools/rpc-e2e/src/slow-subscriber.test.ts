import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BACKGROUND_CONTEXT } from '@pi/context';
import {
  ServiceRegistry,
  createRemoteEvents,
  createRemoteState,
  defineRemoteService,
  type RemoteEvents,
  type RemoteState,
  type WatchFrame,
} from '@pi/remote';
import {
  createRpcClient,
  createRpcHost,
  tokenAuthentication,
  type RpcClient,
  type RpcHost,
  type WireSocket,
} from '@pi/transport-trpc';
import { TRANSPORTS, serveHost, type HostTransport } from '@pi/test-support';

interface Feed {
  readonly tick: RemoteState<{ n: number; pad: string }>;
  readonly beats: RemoteEvents<{ n: number }>;
}

const Feed = defineRemoteService<Feed>('feed', {
  methods: {},
  state: { tick: z.object({ n: z.number().int(), pad: z.string() }) },
  events: { beats: z.object({ n: z.number().int() }) },
});

const TOKEN = 'slow-subscriber-token';
const CHANGES = 10_000;
/** Published in one go: under the backlog limit, so a client that drains gets every change. */
const BATCH = 25;
/** Makes the changes add up to ~10 MB, far more than a socket's kernel buffers hold. */
const PAD = 'p'.repeat(1000);
const FLOW_CONTROL = { highWaterBytes: 64 * 1024, maxBacklogBytes: 64 * 1024, maxBacklogEvents: 100 };
/** The high-water mark, the backlog, and the frames in flight when the limits were reached. */
const QUEUED_BOUND = 256 * 1024;

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

async function until(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** A client whose socket the test can stop reading. */
async function connect(
  host: RpcHost,
  served: HostTransport,
): Promise<{ client: RpcClient; socket: () => WireSocket; clientId: string }> {
  let socket: WireSocket | undefined;
  const before = new Set(host.outboundStats().map((stats) => stats.clientId));
  const client = createRpcClient({
    socketFactory: () => (socket = served.socketFactory()),
    connectionParams: { token: TOKEN },
    reconnect: false,
    // A paused client hears nothing: its own dead-host check must not fire during the test.
    heartbeat: false,
  });
  await client.whenConnected();
  const clientId = host.outboundStats().find((stats) => !before.has(stats.clientId))?.clientId;
  if (clientId === undefined || socket === undefined) throw new Error('The connection is not on the host');
  const opened = socket;
  return { client, socket: () => opened, clientId };
}

/** Every raw frame of one watch, in arrival order. */
function recordFrames(client: RpcClient): WatchFrame[] {
  const frames: WatchFrame[] = [];
  client.watchFrames('feed', { next: (frame) => void frames.push(frame), error: () => undefined });
  return frames;
}

function gaps(frames: readonly WatchFrame[]): number {
  let count = 0;
  for (let index = 1; index < frames.length; index++) {
    const frame = frames[index] as WatchFrame;
    if (frame.kind !== 'snapshot' && frame.seq !== (frames[index - 1] as WatchFrame).seq + 1) count += 1;
  }
  return count;
}

describe.each(TRANSPORTS)('a subscriber that stops reading, over %s', (kind) => {
  let host: RpcHost;
  let served: HostTransport;
  let tick: ReturnType<typeof createRemoteState<{ n: number; pad: string }>>;
  let beats: ReturnType<typeof createRemoteEvents<{ n: number }>>;

  beforeEach(async () => {
    tick = createRemoteState({ n: 0, pad: '' });
    beats = createRemoteEvents<{ n: number }>();
    const registry = new ServiceRegistry();
    registry.provide(Feed, { tick, beats });
    host = createRpcHost({
      registry,
      authenticate: tokenAuthentication(TOKEN, { principal: 'tester', claims: {} }),
      keepAlive: false,
      flowControl: FLOW_CONTROL,
    });
    served = await serveHost(kind, host);
  });
  afterEach(async () => {
    host.close();
    await served.close();
  });

  it('costs the host bounded memory, slows no one else, and catches up after a gap', async () => {
    const fast = await connect(host, served);
    const slow = await connect(host, served);
    const fastFrames = recordFrames(fast.client);
    const slowFrames = recordFrames(slow.client);
    const slowFeed = await slow.client.use(Feed);
    await until(() => fastFrames.length === 1 && slowFrames.length === 1, 'the snapshots');

    slow.socket().pause?.();
    const queued = () => host.outboundStats().find((stats) => stats.clientId === slow.clientId);
    let mostQueued = 0;
    for (let n = 1; n <= CHANGES; n++) {
      tick.set({ n, pad: PAD }, BACKGROUND_CONTEXT);
      beats.emit({ n }, BACKGROUND_CONTEXT);
      if (n % BATCH !== 0) continue;
      // The draining client keeps up; the paused one must not make the host hold more.
      await until(() => fastFrames.length === 1 + 2 * n, `the fast client to hear change ${n}`);
      await turn();
      mostQueued = Math.max(mostQueued, queued()?.queuedBytes ?? 0);
    }

    expect(mostQueued).toBeLessThan(QUEUED_BOUND);
    expect(queued()?.overflows).toBeGreaterThan(0);
    // The other client got every change and every event, in order, without a gap.
    expect(gaps(fastFrames)).toBe(0);
    const fastTicks = fastFrames.flatMap((frame) => (frame.kind === 'state' ? [(frame.value as { n: number }).n] : []));
    const fastBeats = fastFrames.flatMap((frame) => (frame.kind === 'event' ? [(frame.event as { n: number }).n] : []));
    expect(fastTicks).toEqual(Array.from({ length: CHANGES }, (_, index) => index + 1));
    expect(fastBeats).toEqual(Array.from({ length: CHANGES }, (_, index) => index + 1));

    slow.socket().resume?.();
    // The paused client converges on the latest state: its replica re-hydrates after the gap.
    await until(() => slowFeed.tick.value.n === CHANGES, 'the slow replica to converge');
    await until(() => (queued()?.queuedBytes ?? 1) === 0, 'the slow connection to drain');
    // Its raw frames show the overflow as a gap, and end with the latest value.
    expect(gaps(slowFrames)).toBeGreaterThan(0);
    const lastState = slowFrames.findLast((frame) => frame.kind === 'state');
    expect((lastState as { value: { n: number } } | undefined)?.value.n).toBe(CHANGES);
    // Events were dropped only behind a gap.
    const slowBeats = slowFrames.filter((frame) => frame.kind === 'event').length;
    expect(slowBeats).toBeLessThan(CHANGES);

    // Live again: the next change reaches both.
    tick.set({ n: CHANGES + 1, pad: '' }, BACKGROUND_CONTEXT);
    await until(() => slowFeed.tick.value.n === CHANGES + 1, 'the slow client to hear a new change');
    fast.client.close();
    slow.client.close();
  }, 60_000);
});
