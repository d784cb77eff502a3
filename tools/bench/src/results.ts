import type { CallHops } from './hops-bench';
import type { SystemName } from './server-process';
import type { Spread } from './stats';

export interface CallFigures {
  readonly seqCallUs: Spread;
  readonly inFlightCallsPerSec: Spread;
  /** CPU per call while 100 calls are in flight: unlike times, this barely moves when the machine is busy. */
  readonly clientCpuUs: Spread;
  readonly serverCpuUs: Spread;
  /** CPU per sequential call, client and server: less distorted by a busy machine than the latency. */
  readonly seqClientCpuUs: Spread;
  readonly seqServerCpuUs: Spread;
  /** Each main thread's scheduling per sequential call, client and server (Linux only). */
  readonly seqSchedule?: { readonly client: ScheduleFigures; readonly server: ScheduleFigures };
}

/** One main thread per sequential call: µs on a CPU, µs waiting for one, slices, involuntary switches. */
export interface ScheduleFigures {
  readonly runUs: Spread;
  readonly waitUs: Spread;
  readonly slices: Spread;
  readonly involuntarySwitches: Spread;
}

export interface FanoutFigures {
  readonly clients: number;
  readonly valueBytes: number;
  readonly piUs: Spread;
  readonly rawWsUs: Spread;
  /** CPU per publication, server + all subscribers (one process), in µs. */
  readonly piCpuUs: { readonly server: Spread; readonly clients: Spread };
  readonly rawWsCpuUs: { readonly server: Spread; readonly clients: Spread };
  /** The peers' own subscriptions, where the run measured them (the 100-subscriber fan-out). */
  readonly peers?: Partial<Record<SystemName, PeerFanout>>;
}

export interface PeerFanout {
  readonly us: Spread;
  readonly cpuUs: { readonly server: Spread; readonly clients: Spread };
}

/** One system's slow-subscriber figures at one number of changes. */
export interface SlowFigures {
  readonly memoryBytes: Spread;
  readonly rssBytes: Spread;
  /** Absent when the server cannot tell what it holds for the paused connection. */
  readonly queuedBytes?: Spread;
}

/** Host memory while one subscriber is paused and `changes` changes of the ~1 KB cell are published. */
export interface SlowSubscriberFigures {
  readonly changes: number;
  readonly valueBytes: number;
  readonly systems: Record<SystemName, SlowFigures>;
  /** pi again with more changes in the same run: memory held for a paused subscriber must not grow with them. */
  readonly piAtMore?: SlowFigures & { readonly changes: number };
}

/** Everything one run measured; each figure is a spread over the run's rounds. */
export interface BenchResults {
  readonly transport: 'unix' | 'tcp';
  readonly rounds: number;
  readonly durationSec: number;
  /** Sequential calls ran with client and server on one CPU (`onOneCpu`); false where that was not possible. */
  readonly sequentialOnOneCpu: boolean;
  readonly systems: Record<SystemName, CallFigures>;
  /** The same call rounds again, each right after its quiet one, with `processes` busy loops running (`--load`). */
  readonly loaded?: { readonly processes: number; readonly systems: Record<SystemName, CallFigures> };
  /** Each side's callbacks per sequential call, by kind (`--hops`). */
  readonly hops?: Record<SystemName, CallHops>;
  /** The fan-out to 100 subscribers (absent in a `--calls-only` run, as are hydration and idle memory). */
  readonly fanout?: FanoutFigures;
  /** The same fan-out to 1,000 subscribers (absent in runs that skip it). */
  readonly fanout1000?: FanoutFigures;
  /** The slow subscriber (absent in runs that skip it). */
  readonly slow?: SlowSubscriberFigures;
  readonly hydration?: { readonly stateBytes: number; readonly piUs: Spread; readonly rawWsFetchUs: Spread };
  readonly idle?: {
    readonly connections: number;
    readonly piHeapBytes: Spread;
    readonly piRssBytes: Spread;
    readonly rawWsHeapBytes: Spread;
    readonly rawWsRssBytes: Spread;
  };
}

/** `{ name: median, nameMin, nameMax }`: the flat shape of tools/bench/out/rpc.json. */
/** A spread as three fields, to a tenth (or to `1 / scale`). */
function flat(name: string, value: Spread, scale = 10): Record<string, number> {
  const to = (figure: number) => round(figure, scale);
  return { [name]: to(value.median), [`${name}Min`]: to(value.min), [`${name}Max`]: to(value.max) };
}

function round(value: number, scale = 10): number {
  return Math.round(value * scale) / scale;
}

function fanoutJson(fanout: FanoutFigures): Record<string, unknown> {
  return {
    clients: fanout.clients,
    valueBytes: fanout.valueBytes,
    ...flat('piUs', fanout.piUs),
    ...flat('rawWsUs', fanout.rawWsUs),
    ...flat('piServerCpuUs', fanout.piCpuUs.server),
    ...flat('piClientsCpuUs', fanout.piCpuUs.clients),
    ...flat('rawWsServerCpuUs', fanout.rawWsCpuUs.server),
    ...flat('rawWsClientsCpuUs', fanout.rawWsCpuUs.clients),
    ...(fanout.peers === undefined
      ? {}
      : {
          peers: Object.fromEntries(
            Object.entries(fanout.peers).map(([name, peer]) => [
              name,
              {
                ...flat('us', peer.us),
                ...flat('serverCpuUs', peer.cpuUs.server),
                ...flat('clientsCpuUs', peer.cpuUs.clients),
              },
            ]),
          ),
        }),
  };
}

function slowFiguresJson(figures: SlowFigures): Record<string, unknown> {
  return {
    ...flat('memoryBytes', figures.memoryBytes),
    ...flat('rssBytes', figures.rssBytes),
    ...(figures.queuedBytes === undefined ? { queuedBytes: null } : flat('queuedBytes', figures.queuedBytes)),
  };
}

function slowJson(slow: SlowSubscriberFigures): Record<string, unknown> {
  const systems: Record<string, unknown> = {};
  for (const [name, figures] of Object.entries(slow.systems)) systems[name] = slowFiguresJson(figures);
  return {
    changes: slow.changes,
    valueBytes: slow.valueBytes,
    memory: 'heapUsed + external',
    systems,
    ...(slow.piAtMore === undefined
      ? {}
      : { piAtMore: { changes: slow.piAtMore.changes, ...slowFiguresJson(slow.piAtMore) } }),
  };
}

function callsJson(figuresOf: Record<SystemName, CallFigures>): Record<string, unknown> {
  const systems: Record<string, unknown> = {};
  for (const [name, figures] of Object.entries(figuresOf)) {
    systems[name] = {
      ...flat('seqCallUs', figures.seqCallUs),
      ...flat('inflight100CallsPerSec', figures.inFlightCallsPerSec),
      ...flat('clientCpuUsPerCall', figures.clientCpuUs),
      ...flat('serverCpuUsPerCall', figures.serverCpuUs),
      ...flat('seqClientCpuUsPerCall', figures.seqClientCpuUs),
      ...flat('seqServerCpuUsPerCall', figures.seqServerCpuUs),
      ...(figures.seqSchedule === undefined
        ? {}
        : {
            ...scheduleJson('seqClient', figures.seqSchedule.client),
            ...scheduleJson('seqServer', figures.seqSchedule.server),
          }),
    };
  }
  return systems;
}

/** `seqClientRunUsPerCall`, `seqClientWaitUsPerCall`, `seqClientSlicesPerCall`, `seqClientInvoluntaryPerCall`. */
function scheduleJson(prefix: string, figures: ScheduleFigures): Record<string, number> {
  return {
    ...flat(`${prefix}RunUsPerCall`, figures.runUs),
    ...flat(`${prefix}WaitUsPerCall`, figures.waitUs),
    ...flat(`${prefix}SlicesPerCall`, figures.slices, 100),
    ...flat(`${prefix}InvoluntaryPerCall`, figures.involuntarySwitches, 100),
  };
}

export function toJson(results: BenchResults): Record<string, unknown> {
  const systems = callsJson(results.systems);
  const { fanout, hydration, idle, loaded } = results;
  return {
    transport: results.transport,
    rounds: results.rounds,
    durationSec: round(results.durationSec),
    sequentialOnOneCpu: results.sequentialOnOneCpu,
    systems,
    ...(loaded === undefined ? {} : { loaded: { busyLoops: loaded.processes, systems: callsJson(loaded.systems) } }),
    ...(results.hops === undefined ? {} : { hopsPerSequentialCall: results.hops }),
    ...(fanout === undefined ? {} : { fanout: fanoutJson(fanout) }),
    ...(results.fanout1000 === undefined ? {} : { fanout1000: fanoutJson(results.fanout1000) }),
    ...(results.slow === undefined ? {} : { slowSubscriber: slowJson(results.slow) }),
    ...(hydration === undefined
      ? {}
      : {
          hydration: {
            stateBytes: hydration.stateBytes,
            ...flat('piUs', hydration.piUs),
            ...flat('rawWsFetchUs', hydration.rawWsFetchUs),
          },
        }),
    ...(idle === undefined
      ? {}
      : {
          idleConnectionBytes: {
            connections: idle.connections,
            ...flat('piHeap', idle.piHeapBytes),
            ...flat('piRss', idle.piRssBytes),
            ...flat('rawWsHeap', idle.rawWsHeapBytes),
            ...flat('rawWsRss', idle.rawWsRssBytes),
          },
        }),
  };
}
