import { performance } from 'node:perf_hooks';
import { connectPiClient } from './clients/pi.client';
import { connectInWaves } from './connect-in-waves';
import { connectRawWs } from './clients/raw-ws.client';
import { SUBSCRIBE } from './clients/subscriber';
import { BenchFanout } from './pi-services';
import type { ServerProcess, SystemName } from './server-process';
import { median } from './stats';

export interface FanoutSettings {
  readonly clients: number;
  /** Publications timed per round (after one unmeasured one). */
  readonly publications: number;
}

export const DEFAULT_FANOUT_SETTINGS: FanoutSettings = { clients: 100, publications: 15 };
/** The large audience: fewer publications, each already costs a thousand deliveries. */
export const LARGE_FANOUT_SETTINGS: FanoutSettings = { clients: 1000, publications: 5 };

/** Subscribers that count who has seen which round; `expect` resolves once all of them have seen it. */
interface Audience {
  expect(round: number): Promise<void>;
  close(): void;
}

let nextRound = 1;

/**
 * One round: connect the audience (untimed), then time each publication from the moment the command leaves
 * this process until the last subscriber has the value. The command path is the same for every system.
 */
export interface FanoutRound {
  /** Median time from publishing to the last subscriber having the value, in µs. */
  readonly us: number;
  /** CPU per publication: the server's, and the bench process's for all subscribers together, in µs. */
  readonly serverCpuUs: number;
  readonly clientsCpuUs: number;
}

/** The peers measured in the 100-subscriber fan-out, each through its own subscription (`SUBSCRIBE`). */
export const FANOUT_PEERS = ['trpc-wslink', 'capnweb', 'birpc'] as const;
export type FanoutPeer = (typeof FANOUT_PEERS)[number];

export async function measureFanout(
  server: ServerProcess,
  kind: SystemName,
  settings: FanoutSettings = DEFAULT_FANOUT_SETTINGS,
): Promise<FanoutRound> {
  const audience =
    kind === 'pi'
      ? await piAudience(server.url, settings.clients)
      : kind === 'raw-ws'
        ? await rawAudience(server.url, settings.clients)
        : await subscriberAudience(kind, server.url, settings.clients);
  const times: number[] = [];
  try {
    await publishTo(server, audience);
    const serverBefore = await server.cpuMicros();
    const clientsBefore = process.cpuUsage();
    for (let publication = 0; publication < settings.publications; publication++)
      times.push(await publishTo(server, audience));
    const clientsUsed = process.cpuUsage(clientsBefore);
    const serverUsed = (await server.cpuMicros()) - serverBefore;
    return {
      us: median(times),
      serverCpuUs: serverUsed / settings.publications,
      clientsCpuUs: (clientsUsed.user + clientsUsed.system) / settings.publications,
    };
  } finally {
    audience.close();
  }
}

/** One publication, timed from the command leaving this process to the last subscriber having the value. */
async function publishTo(server: ServerProcess, audience: Audience): Promise<number> {
  const round = nextRound++;
  const everyone = audience.expect(round);
  const start = performance.now();
  const acknowledged = server.publish(round);
  await everyone;
  const us = (performance.now() - start) * 1000;
  await acknowledged;
  return us;
}

function counter(size: number): { seen(round: number): void; expect(round: number): Promise<void> } {
  let waiting: { round: number; count: number; resolve: () => void } | undefined;
  return {
    seen(round) {
      if (waiting === undefined || waiting.round !== round) return;
      waiting.count += 1;
      if (waiting.count === size) waiting.resolve();
    },
    expect: (round) => new Promise((resolve) => (waiting = { round, count: 0, resolve })),
  };
}

async function piAudience(url: string, size: number): Promise<Audience> {
  const seen = counter(size);
  const clients = await connectInWaves(size, () => connectPiClient(url));
  for (const client of clients) {
    const service = await client.use(BenchFanout);
    service.cell.subscribe((value) => seen.seen(value.round));
  }
  return { expect: seen.expect, close: () => clients.forEach((client) => client.close()) };
}

async function rawAudience(url: string, size: number): Promise<Audience> {
  const seen = counter(size);
  const clients = await connectInWaves(size, () => connectRawWs(url));
  for (const client of clients) client.onBroadcast((value) => seen.seen((value as { round: number }).round));
  return { expect: seen.expect, close: () => clients.forEach((client) => client.close()) };
}

/** A peer's subscribers, each subscribed in its library's own way. */
async function subscriberAudience(system: SystemName, url: string, size: number): Promise<Audience> {
  const seen = counter(size);
  const subscribers = await Promise.all(
    Array.from({ length: size }, () => SUBSCRIBE[system](url, (value) => seen.seen(value.round))),
  );
  return { expect: seen.expect, close: () => subscribers.forEach((subscriber) => subscriber.close()) };
}
