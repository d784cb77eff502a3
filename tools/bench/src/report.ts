import type { BenchResults, SlowSubscriberFigures } from './results';
import { SYSTEMS } from './server-process';
import { ratio, type Spread } from './stats';
import { checkTargets, times } from './targets';
import { formatSpread, formatTable } from './text-table';

/** The printed summary: the call table with ratios to the floor, the state figures, then the targets. */
export function formatReport(results: BenchResults): string[] {
  const raw = results.systems['raw-ws'];
  const rows = SYSTEMS.map((system) => {
    const figures = results.systems[system];
    return [
      system,
      formatSpread(figures.seqCallUs),
      times(ratio(figures.seqCallUs.median, raw.seqCallUs.median)),
      formatSpread(figures.inFlightCallsPerSec),
      times(ratio(figures.inFlightCallsPerSec.median, raw.inFlightCallsPerSec.median)),
      `${Math.round(figures.clientCpuUs.median)} + ${Math.round(figures.serverCpuUs.median)}`,
    ];
  });
  const { fanout, fanout1000, hydration, idle } = results;
  const kb = (bytes: Spread) =>
    formatSpread({ median: bytes.median / 1024, min: bytes.min / 1024, max: bytes.max / 1024 }, 1);
  const cpuMs = (cpu: { server: Spread; clients: Spread }) =>
    `${(cpu.server.median / 1000).toFixed(2)} + ${(cpu.clients.median / 1000).toFixed(2)}`;
  const ms = (us: Spread) => formatSpread({ median: us.median / 1000, min: us.min / 1000, max: us.max / 1000 }, 2);
  return [
    `RPC benchmark: ${results.rounds} interleaved rounds over ${results.transport === 'unix' ? 'a Unix socket' : 'loopback TCP'}, ` +
      `one server process per system, medians [min–max of round medians], ${results.durationSec.toFixed(0)} s`,
    '',
    ...formatTable(
      ['system', 'seq call µs', 'vs raw', '100 in flight calls/s', 'vs raw', 'CPU µs/call client + server'],
      rows,
    ),
    '',
    `fan-out, 1 KB to ${fanout.clients} clients (ms):   pi ${ms(fanout.piUs)}   raw-ws broadcast ${ms(fanout.rawWsUs)}   ` +
      times(ratio(fanout.piUs.median, fanout.rawWsUs.median)),
    `  CPU per fan-out (ms), server + ${fanout.clients} subscribers: pi ${cpuMs(fanout.piCpuUs)}   raw-ws ${cpuMs(fanout.rawWsCpuUs)}`,
    ...(fanout1000 === undefined
      ? []
      : [
          `fan-out, 1 KB to ${fanout1000.clients} clients (ms):  pi ${ms(fanout1000.piUs)}   raw-ws broadcast ${ms(fanout1000.rawWsUs)}   ` +
            times(ratio(fanout1000.piUs.median, fanout1000.rawWsUs.median)),
          `  CPU per fan-out (ms), server + ${fanout1000.clients} subscribers: pi ${cpuMs(fanout1000.piCpuUs)}   raw-ws ${cpuMs(fanout1000.rawWsCpuUs)}`,
        ]),
    `hydration, 1 MB state (ms):           pi use() ${ms(hydration.piUs)}   raw-ws fetch ${ms(hydration.rawWsFetchUs)}   ` +
      times(ratio(hydration.piUs.median, hydration.rawWsFetchUs.median)),
    `server memory per idle connection (KB, ${idle.connections} conns): pi heap ${kb(idle.piHeapBytes)} rss ${kb(idle.piRssBytes)}   ` +
      `raw-ws heap ${kb(idle.rawWsHeapBytes)} rss ${kb(idle.rawWsRssBytes)}`,
    ...(results.slow === undefined ? [] : slowLines(results.slow)),
    '',
    ...checkTargets(results).map((check) => `${check.met ? 'MET   ' : 'MISSED'}  ${check.target}  (${check.actual})`),
  ];
}

/** The slow-subscriber row: each system's host memory growth and what it queued, or n/a with a footnote. */
export function slowLines(slow: SlowSubscriberFigures): string[] {
  const kb = (bytes: Spread) =>
    formatSpread({ median: bytes.median / 1024, min: bytes.min / 1024, max: bytes.max / 1024 }, 0);
  const reasons: string[] = [];
  const cells = SYSTEMS.map((system) => {
    const figures = slow.systems[system];
    if ('na' in figures) {
      if (!reasons.includes(figures.na)) reasons.push(figures.na);
      return `  ${system.padEnd(12)}n/a${'*'.repeat(reasons.indexOf(figures.na) + 1)}`;
    }
    return `  ${system.padEnd(12)}${kb(figures.memoryBytes)}   rss ${kb(figures.rssBytes)}   queued ${kb(figures.queuedBytes)}`;
  });
  return [
    `slow subscriber, ${slow.changes.toLocaleString('en-US')} changes of ${(slow.valueBytes / 1024).toFixed(1)} KB, ` +
      `1 paused client (host growth in KB: heapUsed + external, rss, bytes queued for the paused connection):`,
    ...cells,
    ...reasons.map((reason, index) => `  ${'*'.repeat(index + 1)} n/a: ${reason}`),
  ];
}
