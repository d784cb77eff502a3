import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import type { BenchOptions } from './bench-options';
import { DEFAULT_CALL_SETTINGS, measureCalls, type CallRound } from './call-bench';
import { startCpuLoad } from './cpu-load';
import { onOneCpu } from './cpu-pinning';
import { CONNECT } from './clients/connect';
import { measureHops, type CallHops } from './hops-bench';
import {
  DEFAULT_FANOUT_SETTINGS,
  FANOUT_PEERS,
  LARGE_FANOUT_SETTINGS,
  measureFanout,
  type FanoutPeer,
  type FanoutRound,
} from './fanout-bench';
import { measureIdleMemory, IDLE_CONNECTIONS, type IdleMemory } from './idle-memory-bench';
import { measurePiHydration, measureRawFetch } from './hydration-bench';
import { bulkValue, fanoutValue } from './payload';
import type {
  BenchResults,
  CallFigures,
  FanoutFigures,
  PeerFanout,
  SlowFigures,
  SlowSubscriberFigures,
} from './results';
import {
  SLOW_BOUND_CHANGES,
  SLOW_CHANGES,
  SLOW_ROUNDS,
  measureSlowSubscriber,
  type SlowSubscriberRound,
} from './slow-subscriber-bench';
import { SYSTEMS, spawnServer, type ServerProcess, type SystemName } from './server-process';
import { spread } from './stats';
import type { SchedulePerCall } from './thread-schedule';

const IDLE_ROUNDS = 3;

/**
 * Starts every system's server in its own process, then repeats each measurement `rounds` times, rotating
 * which system goes first so no system always runs on a warmer or colder machine.
 */
export async function runBench(options: BenchOptions, log: (line: string) => void): Promise<BenchResults> {
  const started = performance.now();
  const sockets = await mkdtemp(join(tmpdir(), 'pi-bench-'));
  const profiles = fileURLToPath(new URL('../out/profiles/', import.meta.url));
  if (options.profile.length > 0) await mkdir(profiles, { recursive: true });
  const servers = new Map<SystemName, ServerProcess>();
  try {
    const spawned = await Promise.all(
      SYSTEMS.map((system) =>
        spawnServer(system, {
          listenOn: options.transport === 'tcp' ? 'tcp' : join(sockets, `${system}.sock`),
          nodeFlags: options.profile.includes(system) ? ['--cpu-prof', `--cpu-prof-dir=${profiles}`] : [],
        }),
      ),
    );
    for (const server of spawned) servers.set(server.system, server);
    const server = (system: SystemName) => servers.get(system) as ServerProcess;

    const calls = new Map<SystemName, CallRound[]>(SYSTEMS.map((system) => [system, []]));
    const loadedCalls = new Map<SystemName, CallRound[]>(SYSTEMS.map((system) => [system, []]));
    const pinning = { everyRound: true };
    log('warming up every system (one unrecorded round)');
    for (const system of SYSTEMS) await callRound(system, server(system), pinning);
    for (let round = 0; round < options.rounds; round++) {
      for (const system of rotate(SYSTEMS, round))
        calls.get(system)?.push(await callRound(system, server(system), pinning));
      // The loaded round follows the quiet one, so both see the same hour of a shared machine.
      if (options.load > 0) {
        const load = await startCpuLoad(options.load);
        try {
          for (const system of rotate(SYSTEMS, round))
            loadedCalls.get(system)?.push(await callRound(system, server(system), pinning));
        } finally {
          await load.stop();
        }
      }
      log(`calls: round ${round + 1}/${options.rounds} done`);
    }

    const hops = new Map<SystemName, CallHops>();
    if (options.hops) {
      for (const system of SYSTEMS) {
        const client = await CONNECT[system](server(system).url);
        try {
          hops.set(system, await measureHops(client, server(system)));
        } finally {
          client.close();
        }
      }
      log('callbacks per call counted');
    }

    const fanout = { pi: [] as FanoutRound[], raw: [] as FanoutRound[] };
    const fanoutPeers = new Map<FanoutPeer, FanoutRound[]>(FANOUT_PEERS.map((peer) => [peer, []]));
    const fanout1000 = { pi: [] as FanoutRound[], raw: [] as FanoutRound[] };
    const hydration = { pi: [] as number[], raw: [] as number[] };
    const idle = { pi: [] as IdleMemory[], raw: [] as IdleMemory[] };
    const slow = new Map<SystemName, SlowSubscriberRound[]>(SYSTEMS.map((system) => [system, []]));
    const slowPiAtMore: SlowSubscriberRound[] = [];
    if (!options.callsOnly) {
      for (let round = 0; round < options.rounds; round++) {
        const piFirst = round % 2 === 0;
        for (const kind of piFirst ? (['pi', 'raw-ws'] as const) : (['raw-ws', 'pi'] as const)) {
          (kind === 'pi' ? fanout.pi : fanout.raw).push(await measureFanout(server(kind), kind));
          (kind === 'pi' ? fanout1000.pi : fanout1000.raw).push(
            await measureFanout(server(kind), kind, LARGE_FANOUT_SETTINGS),
          );
          if (kind === 'pi') hydration.pi.push(await measurePiHydration(server('pi').url));
          else hydration.raw.push(await measureRawFetch(server('raw-ws').url));
        }
        for (const peer of rotate(FANOUT_PEERS, round))
          fanoutPeers.get(peer)?.push(await measureFanout(server(peer), peer));
        log(`fan-out and hydration: round ${round + 1}/${options.rounds} done`);
      }
      for (let round = 0; round < IDLE_ROUNDS; round++) {
        idle.pi.push(await measureIdleMemory(server('pi'), 'pi'));
        idle.raw.push(await measureIdleMemory(server('raw-ws'), 'raw-ws'));
      }
      log('idle connections done');
      for (let round = 0; round < SLOW_ROUNDS; round++) {
        for (const system of rotate(SYSTEMS, round)) {
          slow.get(system)?.push(await measureSlowSubscriber(server(system)));
          if (system === 'pi') slowPiAtMore.push(await measureSlowSubscriber(server('pi'), SLOW_BOUND_CHANGES));
        }
        log(`slow subscriber: round ${round + 1}/${SLOW_ROUNDS} done`);
      }
      log('slow subscriber done');
    }

    return {
      transport: options.transport,
      rounds: options.rounds,
      durationSec: (performance.now() - started) / 1000,
      sequentialOnOneCpu: pinning.everyRound,
      systems: callFigures(calls),
      ...(options.load > 0 ? { loaded: { processes: options.load, systems: callFigures(loadedCalls) } } : {}),
      ...(options.hops ? { hops: Object.fromEntries(hops) as Record<SystemName, CallHops> } : {}),
      ...(options.callsOnly
        ? {}
        : {
            fanout: {
              ...fanoutFigures(DEFAULT_FANOUT_SETTINGS.clients, fanout),
              peers: peerFanoutFigures(fanoutPeers),
            },
            fanout1000: fanoutFigures(LARGE_FANOUT_SETTINGS.clients, fanout1000),
            slow: slowFigures(SLOW_CHANGES, Object.fromEntries(slow) as Record<SystemName, SlowSubscriberRound[]>, {
              changes: SLOW_BOUND_CHANGES,
              rounds: slowPiAtMore,
            }),
            hydration: {
              stateBytes: JSON.stringify(bulkValue()).length,
              piUs: spread(hydration.pi),
              rawWsFetchUs: spread(hydration.raw),
            },
            idle: {
              connections: IDLE_CONNECTIONS,
              piHeapBytes: spread(idle.pi.map((m) => m.heapBytes)),
              piRssBytes: spread(idle.pi.map((m) => m.rssBytes)),
              rawWsHeapBytes: spread(idle.raw.map((m) => m.heapBytes)),
              rawWsRssBytes: spread(idle.raw.map((m) => m.rssBytes)),
            },
          }),
    };
  } finally {
    await Promise.all([...servers.values()].map((server) => server.stop()));
    await rm(sockets, { recursive: true, force: true });
  }
}

function callFigures(calls: ReadonlyMap<SystemName, readonly CallRound[]>): Record<SystemName, CallFigures> {
  return Object.fromEntries(
    SYSTEMS.map((system) => {
      const rounds = calls.get(system) ?? [];
      const figure = (pick: (round: CallRound) => number) => spread(rounds.map(pick));
      return [
        system,
        {
          seqCallUs: figure((r) => r.seqCallUs),
          inFlightCallsPerSec: figure((r) => r.inFlightCallsPerSec),
          clientCpuUs: figure((r) => r.clientCpuUs),
          serverCpuUs: figure((r) => r.serverCpuUs),
          seqClientCpuUs: figure((r) => r.seqClientCpuUs),
          seqServerCpuUs: figure((r) => r.seqServerCpuUs),
          ...scheduleFigures(rounds),
        },
      ];
    }),
  ) as Record<SystemName, CallFigures>;
}

/** The scheduling figures of a system's rounds, when every round has them. */
function scheduleFigures(rounds: readonly CallRound[]): Pick<CallFigures, 'seqSchedule'> {
  const schedules = rounds.map((round) => round.seqSchedule);
  if (schedules.length === 0 || schedules.some((schedule) => schedule === undefined)) return {};
  const of = (side: 'client' | 'server', pick: keyof SchedulePerCall) =>
    spread(schedules.map((schedule) => (schedule as NonNullable<CallRound['seqSchedule']>)[side][pick]));
  const sideFigures = (side: 'client' | 'server') => ({
    runUs: of(side, 'runUs'),
    waitUs: of(side, 'waitUs'),
    slices: of(side, 'slices'),
    involuntarySwitches: of(side, 'involuntarySwitches'),
  });
  return { seqSchedule: { client: sideFigures('client'), server: sideFigures('server') } };
}

function fanoutFigures(clients: number, rounds: { pi: FanoutRound[]; raw: FanoutRound[] }): FanoutFigures {
  const orZero = (values: number[]) => spread(values.length === 0 ? [0] : values);
  return {
    clients,
    valueBytes: JSON.stringify(fanoutValue(1)).length,
    piUs: orZero(rounds.pi.map((r) => r.us)),
    rawWsUs: orZero(rounds.raw.map((r) => r.us)),
    piCpuUs: {
      server: orZero(rounds.pi.map((r) => r.serverCpuUs)),
      clients: orZero(rounds.pi.map((r) => r.clientsCpuUs)),
    },
    rawWsCpuUs: {
      server: orZero(rounds.raw.map((r) => r.serverCpuUs)),
      clients: orZero(rounds.raw.map((r) => r.clientsCpuUs)),
    },
  };
}

export function peerFanoutFigures(
  rounds: ReadonlyMap<FanoutPeer, readonly FanoutRound[]>,
): Partial<Record<SystemName, PeerFanout>> {
  const of = (values: number[]) => spread(values.length === 0 ? [0] : values);
  return Object.fromEntries(
    [...rounds].map(([peer, measured]) => [
      peer,
      {
        us: of(measured.map((r) => r.us)),
        cpuUs: { server: of(measured.map((r) => r.serverCpuUs)), clients: of(measured.map((r) => r.clientsCpuUs)) },
      },
    ]),
  );
}

/** Each system's spreads over its rounds; pi's run with more changes, when given, for the bounded check. */
export function slowFigures(
  changes: number,
  rounds: Record<SystemName, readonly SlowSubscriberRound[]>,
  piAtMore?: { readonly changes: number; readonly rounds: readonly SlowSubscriberRound[] },
): SlowSubscriberFigures {
  return {
    changes,
    valueBytes: JSON.stringify(fanoutValue(1)).length,
    systems: Object.fromEntries(SYSTEMS.map((system) => [system, slowSpreads(rounds[system])])) as Record<
      SystemName,
      SlowFigures
    >,
    ...(piAtMore === undefined ? {} : { piAtMore: { changes: piAtMore.changes, ...slowSpreads(piAtMore.rounds) } }),
  };
}

/** Queued bytes are left out unless the server could tell them in every round. */
function slowSpreads(rounds: readonly SlowSubscriberRound[]): SlowFigures {
  const of = (values: number[]) => spread(values.length === 0 ? [0] : values);
  const queued = rounds.map((round) => round.queuedBytes);
  const told = queued.filter((bytes): bytes is number => bytes !== undefined);
  return {
    memoryBytes: of(rounds.map((round) => round.memoryBytes)),
    rssBytes: of(rounds.map((round) => round.rssBytes)),
    ...(told.length === queued.length && told.length > 0 ? { queuedBytes: of(told) } : {}),
  };
}

/** A fresh connection per round: connection setup is not timed, but no round inherits another's state. */
async function callRound(
  system: SystemName,
  server: ServerProcess,
  pinning: { everyRound: boolean },
): Promise<CallRound> {
  const client = await CONNECT[system](server.url);
  try {
    return await measureCalls(
      client,
      () => server.cpuMicros(),
      DEFAULT_CALL_SETTINGS,
      async (measure) => {
        const { result, pinned } = await onOneCpu([process.pid, server.pid], measure);
        pinning.everyRound &&= pinned;
        return result;
      },
      server.pid,
    );
  } finally {
    client.close();
  }
}

function rotate<T>(items: readonly T[], by: number): T[] {
  const offset = by % items.length;
  return [...items.slice(offset), ...items.slice(0, offset)];
}
