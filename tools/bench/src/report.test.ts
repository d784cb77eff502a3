import { describe, expect, it } from 'vitest';
import { NO_HOPS } from './async-hops';
import { formatReport, hopLines, loadedLines, peerFanoutLines, scheduleLines } from './report';
import type { BenchResults, FanoutFigures, SlowFigures } from './results';
import { toJson } from './results';
import { spread } from './stats';
import { SLOW_BOUND_SLACK_BYTES, checkTargets, slowGrowthBounded } from './targets';

const same = (value: number) => spread([value]);

function results(pi: { seq: number; perSec: number; fanout: number }): BenchResults & { fanout: FanoutFigures } {
  const system = (seq: number, perSec: number) => ({
    seqCallUs: same(seq),
    inFlightCallsPerSec: same(perSec),
    clientCpuUs: same(1e6 / perSec),
    serverCpuUs: same(5e5 / perSec),
    seqClientCpuUs: same(seq / 4),
    seqServerCpuUs: same(seq / 4),
  });
  return {
    transport: 'unix',
    rounds: 1,
    durationSec: 1,
    sequentialOnOneCpu: true,
    systems: {
      'raw-ws': system(100, 20_000),
      'trpc-wslink': system(1500, 15_000),
      pi: system(pi.seq, pi.perSec),
      capnweb: system(400, 8_000),
      birpc: system(250, 12_000),
    },
    fanout: {
      clients: 100,
      valueBytes: 1024,
      piUs: same(pi.fanout),
      rawWsUs: same(1000),
      piCpuUs: { server: same(900), clients: same(1800) },
      rawWsCpuUs: { server: same(300), clients: same(600) },
    },
    hydration: { stateBytes: 1e6, piUs: same(20_000), rawWsFetchUs: same(10_000) },
    idle: {
      connections: 200,
      piHeapBytes: same(4096),
      piRssBytes: same(8192),
      rawWsHeapBytes: same(1024),
      rawWsRssBytes: same(2048),
    },
  };
}

describe('checkTargets', () => {
  it('meets every target when pi is within the bounds', () => {
    expect(checkTargets(results({ seq: 120, perSec: 12_000, fanout: 1900 })).every((check) => check.met)).toBe(true);
  });

  it('names each target pi misses', () => {
    const missed = checkTargets(results({ seq: 320, perSec: 7_000, fanout: 3500 })).filter((check) => !check.met);
    expect(missed.map((check) => check.target)).toEqual([
      'pi CPU per call (client + server) < capnweb',
      'pi seq <= 1.3x raw-ws',
      'pi seq < birpc',
      'pi 100-in-flight >= 0.5x raw-ws',
      'pi 100-in-flight > capnweb',
      'pi fan-out to 100 <= 2x raw broadcast',
    ]);
  });

  it('judges the sequential call against 1.3x raw-ws, at the bound', () => {
    const at = (seq: number) => checkTargets(results({ seq, perSec: 12_000, fanout: 1500 }))[1];
    expect(at(130)).toMatchObject({ target: 'pi seq <= 1.3x raw-ws', met: true, actual: '1.30x' });
    expect(at(131)?.met).toBe(false);
  });
});

describe('formatReport', () => {
  it('lists every system with its ratio to raw-ws', () => {
    const lines = formatReport(results({ seq: 200, perSec: 12_000, fanout: 2500 }));
    expect(lines.find((line) => line.startsWith('pi '))).toMatch(
      /200 \[200–200\]\s+2\.00x\s+12,000 \[12,000–12,000\]\s+0\.60x\s+83 \+ 42$/,
    );
    expect(lines.filter((line) => line.startsWith('MET'))).toHaveLength(5);
  });
});

describe('a --calls-only run', () => {
  it('prints the call table and judges the call targets only: no fan-out, hydration or idle lines', () => {
    const {
      fanout: _fanout,
      hydration: _hydration,
      idle: _idle,
      ...callsOnly
    } = results({
      seq: 120,
      perSec: 12_000,
      fanout: 1900,
    });
    const lines = formatReport(callsOnly);
    expect(lines.some((line) => /fan-out|hydration|idle|NaN/.test(line))).toBe(false);
    expect(checkTargets(callsOnly).map((check) => check.target)).toEqual([
      'pi CPU per call (client + server) < capnweb',
      'pi seq <= 1.3x raw-ws',
      'pi seq < capnweb',
      'pi seq < birpc',
      'pi 100-in-flight >= 0.5x raw-ws',
      'pi 100-in-flight > capnweb',
    ]);
    expect(Object.keys(toJson(callsOnly))).not.toContain('fanout');
  });
});

describe('a --load run', () => {
  const system = (seq: number, perSec: number) => ({
    seqCallUs: same(seq),
    inFlightCallsPerSec: same(perSec),
    clientCpuUs: same(10),
    serverCpuUs: same(10),
    seqClientCpuUs: same(seq / 5),
    seqServerCpuUs: same(seq / 10),
  });
  const loaded = (piSeq: number): BenchResults => ({
    ...results({ seq: 120, perSec: 12_000, fanout: 1900 }),
    loaded: {
      processes: 2,
      systems: {
        'raw-ws': system(200, 10_000),
        'trpc-wslink': system(3000, 5_000),
        pi: system(piSeq, 8_000),
        capnweb: system(500, 4_000),
        birpc: system(300, 6_000),
      },
    },
  });

  it('prints each system quiet and busy side by side, each against raw-ws in its own condition', () => {
    const lines = loadedLines(loaded(260));
    expect(lines[0]).toBe('quiet and with 2 busy loops (each loaded round right after its quiet one):');
    expect(
      lines
        .find((line) => line.startsWith('pi '))
        ?.trim()
        .split(/\s{2,}/),
    ).toEqual(['pi', '120 [120–120]', '1.20x', '260 [260–260]', '1.30x', '0.60x', '0.80x', '30 + 30', '52 + 26']);
    expect(formatReport(loaded(260))).toEqual(expect.arrayContaining(lines));
  });

  it("judges pi's busy ratio against birpc's, and writes the loaded figures to the JSON", () => {
    const busy = (piSeq: number) => checkTargets(loaded(piSeq)).find((check) => check.target.includes('busy loops'));
    expect(busy(300)).toEqual({
      target: "pi seq vs raw-ws with 2 busy loops <= birpc's",
      met: true,
      actual: '1.50x vs 1.50x',
    });
    expect(busy(301)?.met).toBe(false);
    const json = toJson(loaded(260)) as {
      loaded: { busyLoops: number; systems: Record<string, { seqCallUs: number; seqServerCpuUsPerCall: number }> };
    };
    expect(json.loaded.busyLoops).toBe(2);
    expect(json.loaded.systems['pi']?.seqCallUs).toBe(260);
    expect(json.loaded.systems['pi']?.seqServerCpuUsPerCall).toBe(26);
  });

  it('prints where a sequential call went on each main thread, quiet and busy, and writes it to the JSON', () => {
    const scheduled = (runUs: number) => {
      const side = { runUs: same(runUs), waitUs: same(runUs * 2), slices: same(1.04), involuntarySwitches: same(0.5) };
      return { seqSchedule: { client: side, server: side } };
    };
    const base = loaded(260);
    const busy = base.loaded?.systems ?? base.systems;
    const run: BenchResults = {
      ...base,
      systems: { ...base.systems, pi: { ...base.systems.pi, ...scheduled(30) } },
      loaded: { processes: 2, systems: { ...busy, pi: { ...busy.pi, ...scheduled(40) } } },
    };
    const lines = scheduleLines(run);
    expect(lines[0]).toBe('per sequential call, each main thread, client + server (/proc schedstat):');
    const rows = lines.filter((line) => line.startsWith('pi ')).map((line) => line.trim().split(/\s{2,}/));
    expect(rows).toEqual([
      ['pi', 'quiet', '30.0 + 30.0', '60.0 + 60.0', '1.04 + 1.04', '0.50 + 0.50'],
      ['pi', 'busy', '40.0 + 40.0', '80.0 + 80.0', '1.04 + 1.04', '0.50 + 0.50'],
    ]);
    expect(formatReport(run)).toEqual(expect.arrayContaining(lines));
    const json = toJson(run) as { systems: Record<string, Record<string, number>> };
    expect(json.systems['pi']).toMatchObject({ seqClientRunUsPerCall: 30, seqServerWaitUsPerCall: 60 });
    expect(json.systems['pi']).toMatchObject({ seqClientSlicesPerCall: 1.04, seqServerInvoluntaryPerCall: 0.5 });
    expect(json.systems['raw-ws']).not.toHaveProperty('seqClientRunUsPerCall');
    expect(scheduleLines(base)).toEqual([]);
  });

  it("prints each side's callbacks per sequential call when the run counted them, and writes them to the JSON", () => {
    const base = loaded(260);
    const side = { ...NO_HOPS, promiseReactions: 2, ticks: 2, io: 1 };
    const hops = Object.fromEntries(
      Object.keys(base.systems).map((system) => [system, { client: side, server: { ...side, immediates: 0.03 } }]),
    ) as NonNullable<BenchResults['hops']>;
    const run: BenchResults = { ...base, hops };
    const lines = hopLines(run);
    expect(lines[0]).toBe('callbacks per sequential call, client + server (async_hooks, an untimed round):');
    expect(
      lines
        .find((line) => line.startsWith('pi '))
        ?.trim()
        .split(/\s{2,}/),
    ).toEqual(['pi', '2 + 2', '2 + 2', '0 + 0.03', '0 + 0', '0 + 0', '1 + 1']);
    expect(formatReport(run)).toEqual(expect.arrayContaining(lines));
    expect((toJson(run) as { hopsPerSequentialCall: unknown }).hopsPerSequentialCall).toEqual(hops);
    expect(hopLines(base)).toEqual([]);
  });

  it('prints and judges nothing about load when the run had none', () => {
    const quiet = results({ seq: 120, perSec: 12_000, fanout: 1900 });
    expect(loadedLines(quiet)).toEqual([]);
    expect(checkTargets(quiet).some((check) => check.target.includes('busy'))).toBe(false);
    expect(Object.keys(toJson(quiet))).not.toContain('loaded');
  });
});

describe('the fan-out to 1,000 subscribers', () => {
  it('is reported and judged against 2x raw broadcast when the run measured it', () => {
    const base = results({ seq: 200, perSec: 12_000, fanout: 2500 });
    const measured: BenchResults = { ...base, fanout1000: { ...base.fanout, clients: 1000, piUs: same(2500) } };
    expect(formatReport(measured).find((line) => line.startsWith('fan-out, 1 KB to 1000'))).toMatch(/2\.50x$/);
    expect(checkTargets(measured).find((check) => check.target.includes('1000'))).toMatchObject({ met: false });
    expect((toJson(measured) as { fanout1000: { clients: number } }).fanout1000.clients).toBe(1000);
  });
});

describe("the peers' fan-out", () => {
  const peer = (us: number) => ({ us: same(us), cpuUs: { server: same(us / 2), clients: same(us) } });

  it('prints each peer beside raw-ws broadcast, with its CPU, and writes it to the JSON', () => {
    const base = results({ seq: 200, perSec: 12_000, fanout: 2500 });
    const measured = {
      ...base,
      fanout: { ...base.fanout, peers: { 'trpc-wslink': peer(4000), capnweb: peer(2000), birpc: peer(1500) } },
    };
    const lines = peerFanoutLines(measured.fanout);
    expect(lines[0]).toBe('  the peers, each through its own subscription, to the same 100 clients:');
    expect(lines.slice(3).map((line) => line.trim().split(/\s{2,}/))).toEqual([
      ['trpc-wslink', '4.00 [4.00–4.00]', '4.00x', '2.00 + 4.00'],
      ['capnweb', '2.00 [2.00–2.00]', '2.00x', '1.00 + 2.00'],
      ['birpc', '1.50 [1.50–1.50]', '1.50x', '0.75 + 1.50'],
    ]);
    expect(formatReport(measured)).toEqual(expect.arrayContaining(lines));
    const json = toJson(measured) as { fanout: { peers: Record<string, Record<string, number>> } };
    expect(json.fanout.peers['capnweb']).toMatchObject({ us: 2000, serverCpuUs: 1000, clientsCpuUs: 2000 });
  });

  it('prints nothing when the run measured no peer', () => {
    expect(peerFanoutLines(results({ seq: 200, perSec: 12_000, fanout: 2500 }).fanout)).toEqual([]);
  });
});

describe('the bounded slow-subscriber target', () => {
  const KB = 1024;
  const slow = (at10k: number, at20k: number): BenchResults['slow'] => {
    const figures = (bytes: number): SlowFigures => ({ memoryBytes: same(bytes), rssBytes: same(bytes) });
    return {
      changes: 10_000,
      valueBytes: 1024,
      systems: {
        'raw-ws': figures(10_000 * KB),
        'trpc-wslink': figures(10_000 * KB),
        pi: figures(at10k),
        capnweb: figures(10_000 * KB),
        birpc: figures(10_000 * KB),
      },
      piAtMore: { changes: 20_000, ...figures(at20k) },
    };
  };
  const bounded = (at10k: number, at20k: number) =>
    checkTargets({ ...results({ seq: 200, perSec: 12_000, fanout: 2500 }), slow: slow(at10k, at20k) }).find((check) =>
      check.target.startsWith('pi memory with a paused subscriber is bounded'),
    );

  it('allows the growth at more changes up to 1.25x the growth at fewer plus the slack', () => {
    expect(slowGrowthBounded(2048 * KB, 2048 * KB)).toBe(true);
    expect(slowGrowthBounded(2048 * KB, 2560 * KB + SLOW_BOUND_SLACK_BYTES)).toBe(true);
    expect(slowGrowthBounded(2048 * KB, 2560 * KB + SLOW_BOUND_SLACK_BYTES + 1)).toBe(false);
  });

  it('misses growth that doubles with the changes, as an unbounded queue does', () => {
    expect(slowGrowthBounded(10_000 * KB, 20_000 * KB)).toBe(false);
  });

  it('judges a shrinking or negative growth at fewer changes against the slack alone', () => {
    expect(slowGrowthBounded(-300 * KB, 400 * KB)).toBe(true);
    expect(slowGrowthBounded(-300 * KB, 600 * KB)).toBe(false);
  });

  it('is printed with both counts and both growths when the run measured pi at more changes', () => {
    expect(bounded(2000 * KB, 2100 * KB)).toEqual({
      target:
        'pi memory with a paused subscriber is bounded: growth at 20,000 changes <= 1.25x growth at 10,000 + 512 KB',
      met: true,
      actual: '2,100 KB vs 2,000 KB',
    });
    expect(bounded(2000 * KB, 4000 * KB)).toMatchObject({ met: false });
    const lines = formatReport({
      ...results({ seq: 200, perSec: 12_000, fanout: 2500 }),
      slow: slow(2000 * KB, 4000 * KB),
    });
    expect(lines).toContain(
      'MISSED  pi memory with a paused subscriber is bounded: growth at 20,000 changes <= 1.25x growth at 10,000 + 512 KB  (4,000 KB vs 2,000 KB)',
    );
  });

  it('is not judged when the run did not measure the slow subscriber', () => {
    expect(
      checkTargets(results({ seq: 200, perSec: 12_000, fanout: 2500 })).map((check) => check.target),
    ).not.toContain(expect.stringMatching(/paused subscriber/));
  });
});

describe('toJson', () => {
  it('flattens each figure to median, Min and Max', () => {
    const json = toJson(results({ seq: 200, perSec: 12_000, fanout: 2500 })) as {
      systems: Record<string, Record<string, number>>;
    };
    expect(json.systems['pi']).toEqual({
      seqCallUs: 200,
      seqCallUsMin: 200,
      seqCallUsMax: 200,
      inflight100CallsPerSec: 12_000,
      inflight100CallsPerSecMin: 12_000,
      inflight100CallsPerSecMax: 12_000,
      clientCpuUsPerCall: 83.3,
      clientCpuUsPerCallMin: 83.3,
      clientCpuUsPerCallMax: 83.3,
      serverCpuUsPerCall: 41.7,
      serverCpuUsPerCallMin: 41.7,
      serverCpuUsPerCallMax: 41.7,
      seqClientCpuUsPerCall: 50,
      seqClientCpuUsPerCallMin: 50,
      seqClientCpuUsPerCallMax: 50,
      seqServerCpuUsPerCall: 50,
      seqServerCpuUsPerCallMin: 50,
      seqServerCpuUsPerCallMax: 50,
    });
  });
});
