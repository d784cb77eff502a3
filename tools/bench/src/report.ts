import type {
  BenchResults,
  CallFigures,
  FanoutFigures,
  ScheduleFigures,
  SlowFigures,
  SlowSubscriberFigures,
} from './results';
import type { AsyncHops } from './async-hops';
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
    results.sequentialOnOneCpu
      ? 'sequential calls: client and server on one CPU (taskset), so cross-CPU wake-ups do not decide the latency'
      : 'sequential calls: not pinned (no taskset here); their latency includes cross-CPU wake-ups',
    '',
    ...formatTable(
      ['system', 'seq call µs', 'vs raw', '100 in flight calls/s', 'vs raw', 'CPU µs/call client + server'],
      rows,
    ),
    '',
    ...(results.loaded === undefined ? [] : [...loadedLines(results), '']),
    ...scheduleLines(results),
    ...hopLines(results),
    ...(fanout === undefined
      ? []
      : [
          `fan-out, 1 KB to ${fanout.clients} clients (ms):   pi ${ms(fanout.piUs)}   raw-ws broadcast ${ms(fanout.rawWsUs)}   ` +
            times(ratio(fanout.piUs.median, fanout.rawWsUs.median)),
          `  CPU per fan-out (ms), server + ${fanout.clients} subscribers: pi ${cpuMs(fanout.piCpuUs)}   raw-ws ${cpuMs(fanout.rawWsCpuUs)}`,
          ...peerFanoutLines(fanout),
        ]),
    ...(fanout1000 === undefined
      ? []
      : [
          `fan-out, 1 KB to ${fanout1000.clients} clients (ms):  pi ${ms(fanout1000.piUs)}   raw-ws broadcast ${ms(fanout1000.rawWsUs)}   ` +
            times(ratio(fanout1000.piUs.median, fanout1000.rawWsUs.median)),
          `  CPU per fan-out (ms), server + ${fanout1000.clients} subscribers: pi ${cpuMs(fanout1000.piCpuUs)}   raw-ws ${cpuMs(fanout1000.rawWsCpuUs)}`,
        ]),
    ...(hydration === undefined
      ? []
      : [
          `hydration, 1 MB state (ms):           pi use() ${ms(hydration.piUs)}   raw-ws fetch ${ms(hydration.rawWsFetchUs)}   ` +
            times(ratio(hydration.piUs.median, hydration.rawWsFetchUs.median)),
        ]),
    ...(idle === undefined
      ? []
      : [
          `server memory per idle connection (KB, ${idle.connections} conns): pi heap ${kb(idle.piHeapBytes)} rss ${kb(idle.piRssBytes)}   ` +
            `raw-ws heap ${kb(idle.rawWsHeapBytes)} rss ${kb(idle.rawWsRssBytes)}`,
        ]),
    ...(results.slow === undefined ? [] : slowLines(results.slow)),
    '',
    ...checkTargets(results).map((check) => `${check.met ? 'MET   ' : 'MISSED'}  ${check.target}  (${check.actual})`),
  ];
}

/**
 * The call figures quiet and with the busy loops side by side, each as a ratio to raw `ws` in the same condition:
 * a system that waits on more scheduling points per call falls further behind when every CPU is taken.
 */
export function loadedLines(results: BenchResults): string[] {
  const loaded = results.loaded;
  if (loaded === undefined) return [];
  const quietRaw = results.systems['raw-ws'];
  const busyRaw = loaded.systems['raw-ws'];
  const rows = SYSTEMS.map((system) => {
    const quiet = results.systems[system];
    const busy = loaded.systems[system];
    return [
      system,
      formatSpread(quiet.seqCallUs),
      times(ratio(quiet.seqCallUs.median, quietRaw.seqCallUs.median)),
      formatSpread(busy.seqCallUs),
      times(ratio(busy.seqCallUs.median, busyRaw.seqCallUs.median)),
      times(ratio(quiet.inFlightCallsPerSec.median, quietRaw.inFlightCallsPerSec.median)),
      times(ratio(busy.inFlightCallsPerSec.median, busyRaw.inFlightCallsPerSec.median)),
      seqCpu(quiet),
      seqCpu(busy),
    ];
  });
  return [
    `quiet and with ${loaded.processes} busy loop${loaded.processes === 1 ? '' : 's'} (each loaded round right after its quiet one):`,
    ...formatTable(
      [
        'system',
        'seq µs quiet',
        'vs raw',
        'seq µs busy',
        'vs raw',
        '100 in flight vs raw, quiet',
        'busy',
        'CPU µs/seq call c + s, quiet',
        'busy',
      ],
      rows,
    ),
  ];
}

/**
 * Where a sequential call's time goes, per call and main thread (client + server): on a CPU, waiting for one, and how
 * often each was put on one. A system that yields more per call shows more slices; one that only works more shows
 * more CPU time, and then more waiting on a busy machine.
 */
export function scheduleLines(results: BenchResults): string[] {
  const conditions = [
    ['quiet', results.systems],
    ...(results.loaded === undefined ? [] : [['busy', results.loaded.systems] as const]),
  ] as const;
  const rows = conditions.flatMap(([condition, systems]) =>
    SYSTEMS.flatMap((system) => {
      const schedule = systems[system].seqSchedule;
      if (schedule === undefined) return [];
      const pair = (pick: (side: ScheduleFigures) => Spread, digits: number) =>
        `${pick(schedule.client).median.toFixed(digits)} + ${pick(schedule.server).median.toFixed(digits)}`;
      return [
        [
          system,
          condition,
          pair((side) => side.runUs, 1),
          pair((side) => side.waitUs, 1),
          pair((side) => side.slices, 2),
          pair((side) => side.involuntarySwitches, 2),
        ],
      ];
    }),
  );
  if (rows.length === 0) return [];
  return [
    'per sequential call, each main thread, client + server (/proc schedstat):',
    ...formatTable(['system', '', 'µs on a CPU', 'µs waiting for one', 'slices', 'involuntary switches'], rows),
    '',
  ];
}

/** Each side's callbacks per sequential call, by kind (`--hops`). */
export function hopLines(results: BenchResults): string[] {
  const hops = results.hops;
  if (hops === undefined) return [];
  const rows = SYSTEMS.map((system) => {
    const { client, server } = hops[system];
    const pair = (pick: (side: AsyncHops) => number) => `${pick(client)} + ${pick(server)}`;
    return [
      system,
      pair((side) => side.promiseReactions),
      pair((side) => side.ticks + side.microtasks),
      pair((side) => side.immediates),
      pair((side) => side.timers),
      pair((side) => side.timersArmed),
      pair((side) => side.io),
    ];
  });
  return [
    'callbacks per sequential call, client + server (async_hooks, an untimed round):',
    ...formatTable(
      ['system', 'promise reactions', 'ticks', 'immediates', 'timers run', 'timers armed', 'I/O callbacks'],
      rows,
    ),
    '',
  ];
}

/** CPU per sequential call, client + server (median of the rounds' figures). */
function seqCpu(figures: CallFigures): string {
  return `${Math.round(figures.seqClientCpuUs.median)} + ${Math.round(figures.seqServerCpuUs.median)}`;
}

/** The peers' fan-out through their own subscriptions, beside the same figure for raw-ws. */
export function peerFanoutLines(fanout: FanoutFigures): string[] {
  const peers = Object.entries(fanout.peers ?? {});
  if (peers.length === 0) return [];
  const ms = (us: Spread) => formatSpread({ median: us.median / 1000, min: us.min / 1000, max: us.max / 1000 }, 2);
  const rows = peers.map(([name, peer]) => [
    name,
    ms(peer.us),
    times(ratio(peer.us.median, fanout.rawWsUs.median)),
    `${(peer.cpuUs.server.median / 1000).toFixed(2)} + ${(peer.cpuUs.clients.median / 1000).toFixed(2)}`,
  ]);
  return [
    `  the peers, each through its own subscription, to the same ${fanout.clients} clients:`,
    ...formatTable(['peer', 'ms', 'vs raw', 'CPU ms server + subscribers'], rows).map((line) => `    ${line}`),
  ];
}

/**
 * The slow-subscriber rows: each system's host memory growth and what it queued for the paused connection, one
 * row per number of changes (pi's second row is the bounded-memory check's).
 */
export function slowLines(slow: SlowSubscriberFigures): string[] {
  const kb = (bytes: Spread | undefined) =>
    bytes === undefined
      ? 'n/a'
      : formatSpread({ median: bytes.median / 1024, min: bytes.min / 1024, max: bytes.max / 1024 }, 0);
  const row = (system: string, changes: number, figures: SlowFigures) => [
    system,
    changes.toLocaleString('en-US'),
    kb(figures.memoryBytes),
    kb(figures.rssBytes),
    kb(figures.queuedBytes),
  ];
  const rows = SYSTEMS.flatMap((system) => [
    row(system, slow.changes, slow.systems[system]),
    ...(system === 'pi' && slow.piAtMore !== undefined ? [row(system, slow.piAtMore.changes, slow.piAtMore)] : []),
  ]);
  return [
    `slow subscriber, changes of ${(slow.valueBytes / 1024).toFixed(1)} KB to 1 paused client ` +
      `(host growth, KB; queued: held for the paused connection):`,
    ...formatTable(['system', 'changes', 'heapUsed + external', 'rss', 'queued'], rows).map((line) => `  ${line}`),
  ];
}
