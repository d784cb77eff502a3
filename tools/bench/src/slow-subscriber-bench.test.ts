import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slowLines } from './report';
import { toJson, type BenchResults } from './results';
import { SLOW_NA_REASON, slowFigures } from './run-bench';
import { spawnServer, type ServerProcess } from './server-process';
import { spread } from './stats';
import { measureSlowSubscriber, type SlowSubscriberRound } from './slow-subscriber-bench';

const same = (value: number) => spread([value]);
const CALLS = { seqCallUs: same(1), inFlightCallsPerSec: same(1), clientCpuUs: same(1), serverCpuUs: same(1) };
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
  systems: { 'raw-ws': CALLS, 'trpc-wslink': CALLS, pi: CALLS, capnweb: CALLS, birpc: CALLS },
  fanout: FANOUT,
  hydration: { stateBytes: 1, piUs: same(1), rawWsFetchUs: same(1) },
  idle: { connections: 1, piHeapBytes: same(1), piRssBytes: same(1), rawWsHeapBytes: same(1), rawWsRssBytes: same(1) },
};

/** Enough ~1 KB changes to overfill a Unix socket's kernel buffers, so a paused raw client shows `bufferedAmount`. */
const CHANGES = 2_000;

describe('the slow-subscriber measurement (small numbers, real servers)', () => {
  let sockets: string;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    sockets = await mkdtemp(join(tmpdir(), 'pi-bench-slow-'));
    servers.push(
      ...(await Promise.all(
        (['pi', 'raw-ws'] as const).map((system) => spawnServer(system, { listenOn: join(sockets, `${system}.sock`) })),
      )),
    );
  }, 30_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await rm(sockets, { recursive: true, force: true });
  });

  const server = (system: 'pi' | 'raw-ws') => servers.find((candidate) => candidate.system === system) as ServerProcess;

  it('reads the host memory and queued bytes for a paused pi subscriber and a paused raw ws client', async () => {
    const pi = await measureSlowSubscriber(server('pi'), 'pi', CHANGES);
    const raw = await measureSlowSubscriber(server('raw-ws'), 'raw-ws', CHANGES);
    for (const round of [pi, raw]) {
      expect(Number.isFinite(round.memoryBytes)).toBe(true);
      expect(Number.isFinite(round.rssBytes)).toBe(true);
    }
    // ws buffers what the paused client does not read; pi's flow control holds back (its limits are 1 MiB + 1 MiB).
    expect(raw.queuedBytes).toBeGreaterThan(0);
    expect(pi.queuedBytes).toBeLessThan(3 * 1024 * 1024);
  }, 30_000);
});

describe('the slow-subscriber row', () => {
  const round = (memoryBytes: number, queuedBytes: number): SlowSubscriberRound => ({
    memoryBytes,
    rssBytes: memoryBytes * 2,
    queuedBytes,
  });

  it('prints pi and raw-ws in KB and the peers as n/a with one footnote', () => {
    const figures = slowFigures(10_000, {
      pi: [round(512 * 1024, 64 * 1024)],
      raw: [round(10_240 * 1024, 9_000 * 1024)],
    });
    const lines = slowLines(figures);
    expect(lines[0]).toMatch(/^slow subscriber, 10,000 changes of 1\.0 KB, 1 paused client/);
    expect(lines).toContain('  pi          512 [512–512]   rss 1,024 [1,024–1,024]   queued 64 [64–64]');
    expect(lines.find((line) => line.startsWith('  raw-ws'))).toMatch(/^ {2}raw-ws {6}10,240 \[/);
    for (const peer of ['trpc-wslink', 'capnweb', 'birpc']) expect(lines).toContain(`  ${peer.padEnd(12)}n/a*`);
    expect(lines.filter((line) => line.startsWith('  * n/a:'))).toHaveLength(1);
    const json = toJson({ ...BASE, slow: figures }) as { slowSubscriber: { systems: Record<string, unknown> } };
    expect(json.slowSubscriber.systems['pi']).toMatchObject({ memoryBytes: 512 * 1024, queuedBytes: 64 * 1024 });
    expect(json.slowSubscriber.systems['birpc']).toEqual({ na: SLOW_NA_REASON });
  });
});
