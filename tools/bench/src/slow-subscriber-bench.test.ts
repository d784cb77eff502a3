import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUBSCRIBE } from './clients/subscriber';
import type { FanoutValue } from './payload';
import { slowLines } from './report';
import { toJson, type BenchResults } from './results';
import { slowFigures } from './run-bench';
import { SYSTEMS, spawnServer, type ServerProcess, type SystemName } from './server-process';
import { spread } from './stats';
import { measureSlowSubscriber, type SlowSubscriberRound } from './slow-subscriber-bench';

const same = (value: number) => spread([value]);
const CALLS = {
  seqCallUs: same(1),
  inFlightCallsPerSec: same(1),
  clientCpuUs: same(1),
  serverCpuUs: same(1),
  seqClientCpuUs: same(1),
  seqServerCpuUs: same(1),
};
const FANOUT = {
  clients: 1,
  valueBytes: 1,
  piUs: same(1),
  rawWsUs: same(1),
  piCpuUs: { server: same(1), clients: same(1) },
  rawWsCpuUs: { server: same(1), clients: same(1) },
};
const BASE: BenchResults = {
  transport: 'unix',
  rounds: 1,
  durationSec: 1,
  sequentialOnOneCpu: true,
  systems: { 'raw-ws': CALLS, 'trpc-wslink': CALLS, pi: CALLS, capnweb: CALLS, birpc: CALLS },
  fanout: FANOUT,
  hydration: { stateBytes: 1, piUs: same(1), rawWsFetchUs: same(1) },
  idle: { connections: 1, piHeapBytes: same(1), piRssBytes: same(1), rawWsHeapBytes: same(1), rawWsRssBytes: same(1) },
};

/** Enough ~1 KB changes to overfill a Unix socket's kernel buffers, so a paused `ws` client shows `bufferedAmount`. */
const CHANGES = 2_000;

describe('the slow-subscriber measurement (small numbers, real servers)', () => {
  let sockets: string;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    sockets = await mkdtemp(join(tmpdir(), 'pi-bench-slow-'));
    servers.push(
      ...(await Promise.all(
        SYSTEMS.map((system) => spawnServer(system, { listenOn: join(sockets, `${system}.sock`) })),
      )),
    );
  }, 30_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await rm(sockets, { recursive: true, force: true });
  });

  const server = (system: SystemName) => servers.find((candidate) => candidate.system === system) as ServerProcess;

  it.each(SYSTEMS)('delivers a published change to a %s subscriber that reads', async (system) => {
    let heard!: (value: FanoutValue) => void;
    const round = 7_000 + SYSTEMS.indexOf(system);
    const delivered = new Promise<FanoutValue>((resolve) => (heard = resolve));
    const subscriber = await SUBSCRIBE[system](server(system).url, (value) => {
      if (value.round === round) heard(value);
    });
    try {
      await server(system).publish(round);
      expect((await delivered).round).toBe(round);
    } finally {
      subscriber.close();
    }
  });

  it('reads the host memory and queued bytes for a paused subscriber of every system', async () => {
    const rounds = new Map<SystemName, SlowSubscriberRound>();
    for (const system of SYSTEMS) rounds.set(system, await measureSlowSubscriber(server(system), CHANGES));
    for (const round of rounds.values()) {
      expect(Number.isFinite(round.memoryBytes)).toBe(true);
      expect(Number.isFinite(round.rssBytes)).toBe(true);
    }
    // `ws` buffers what the paused client does not read; pi's flow control holds back (its limits are 1 MiB + 1 MiB).
    for (const peer of ['raw-ws', 'trpc-wslink', 'capnweb', 'birpc'] as const)
      expect(rounds.get(peer)?.queuedBytes).toBeGreaterThan(0);
    expect(rounds.get('pi')?.queuedBytes).toBeLessThan(3 * 1024 * 1024);
  }, 60_000);
});

describe('the slow-subscriber rows', () => {
  const round = (memoryBytes: number, queuedBytes: number | undefined): SlowSubscriberRound => ({
    memoryBytes,
    rssBytes: memoryBytes * 2,
    queuedBytes,
  });
  const everySystem = (rounds: readonly SlowSubscriberRound[]) =>
    Object.fromEntries(SYSTEMS.map((system) => [system, rounds])) as Record<SystemName, SlowSubscriberRound[]>;

  it('prints every system in KB at the row count, and pi again at the larger count', () => {
    const figures = slowFigures(
      10_000,
      { ...everySystem([round(10_240 * 1024, 9_000 * 1024)]), pi: [round(512 * 1024, 64 * 1024)] },
      { changes: 20_000, rounds: [round(520 * 1024, 64 * 1024)] },
    );
    const lines = slowLines(figures);
    expect(lines[0]).toMatch(/^slow subscriber, changes of 1\.0 KB to 1 paused client/);
    const pi = lines.filter((line) => line.startsWith('  pi '));
    expect(pi.map((line) => line.split(/\s{2,}/).slice(1))).toEqual([
      ['pi', '10,000', '512 [512–512]', '1,024 [1,024–1,024]', '64 [64–64]'],
      ['pi', '20,000', '520 [520–520]', '1,040 [1,040–1,040]', '64 [64–64]'],
    ]);
    for (const peer of ['raw-ws', 'trpc-wslink', 'capnweb', 'birpc'])
      expect(lines.find((line) => line.startsWith(`  ${peer} `))).toMatch(/10,000\s+10,240 \[10,240–10,240\]/);
  });

  it('prints queued as n/a for a server that cannot tell, and keeps its memory', () => {
    const figures = slowFigures(10_000, { ...everySystem([round(1024, 0)]), birpc: [round(2048, undefined)] });
    expect(figures.systems.birpc.queuedBytes).toBeUndefined();
    expect(slowLines(figures).find((line) => line.startsWith('  birpc'))).toMatch(/2 \[2–2\]\s+4 \[4–4\]\s+n\/a$/);
  });

  it('writes every system and pi at the larger count to the JSON', () => {
    const figures = slowFigures(
      10_000,
      { ...everySystem([round(1024, 2048)]), capnweb: [round(1024, undefined)] },
      { changes: 20_000, rounds: [round(4096, 0)] },
    );
    const json = toJson({ ...BASE, slow: figures }) as {
      slowSubscriber: { systems: Record<string, unknown>; piAtMore: unknown };
    };
    expect(json.slowSubscriber.systems['trpc-wslink']).toMatchObject({ memoryBytes: 1024, queuedBytes: 2048 });
    expect(json.slowSubscriber.systems['capnweb']).toMatchObject({ memoryBytes: 1024, queuedBytes: null });
    expect(json.slowSubscriber.piAtMore).toMatchObject({ changes: 20_000, memoryBytes: 4096 });
  });
});
