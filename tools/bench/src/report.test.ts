import { describe, expect, it } from 'vitest';
import { formatReport } from './report';
import type { BenchResults } from './results';
import { toJson } from './results';
import { spread } from './stats';
import { checkTargets } from './targets';

const same = (value: number) => spread([value]);

function results(pi: { seq: number; perSec: number; fanout: number }): BenchResults {
  const system = (seq: number, perSec: number) => ({
    seqCallUs: same(seq),
    inFlightCallsPerSec: same(perSec),
    clientCpuUs: same(1e6 / perSec),
    serverCpuUs: same(5e5 / perSec),
  });
  return {
    transport: 'unix',
    rounds: 1,
    durationSec: 1,
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
    expect(checkTargets(results({ seq: 200, perSec: 12_000, fanout: 2500 })).every((check) => check.met)).toBe(true);
  });

  it('names each target pi misses', () => {
    const missed = checkTargets(results({ seq: 320, perSec: 9_000, fanout: 3500 })).filter((check) => !check.met);
    expect(missed.map((check) => check.target)).toEqual([
      'pi seq <= 3x raw-ws',
      'pi seq < birpc',
      'pi 100-in-flight >= 0.5x raw-ws',
      'pi fan-out <= 3x raw broadcast',
    ]);
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

describe('the fan-out to 1,000 subscribers', () => {
  it('is reported and judged against 2x raw broadcast when the run measured it', () => {
    const base = results({ seq: 200, perSec: 12_000, fanout: 2500 });
    const measured: BenchResults = { ...base, fanout1000: { ...base.fanout, clients: 1000, piUs: same(2500) } };
    expect(formatReport(measured).find((line) => line.startsWith('fan-out, 1 KB to 1000'))).toMatch(/2\.50x$/);
    expect(checkTargets(measured).find((check) => check.target.includes('1000'))).toMatchObject({ met: false });
    expect((toJson(measured) as { fanout1000: { clients: number } }).fanout1000.clients).toBe(1000);
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
    });
  });
});
