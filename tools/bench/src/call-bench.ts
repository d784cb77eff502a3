import { performance } from 'node:perf_hooks';
import type { EchoClient } from './clients/echo-client';
import { CALL_PAYLOAD } from './payload';
import { median } from './stats';
import { readThreadSchedule, schedulePerCall, type SchedulePerCall } from './thread-schedule';

export interface CallSettings {
  /** Unmeasured calls first on each fresh connection, so both ends run optimized code. */
  readonly warmupCalls: number;
  readonly sequentialCalls: number;
  readonly inFlight: number;
  /** The in-flight figure is calls completed in this window (time-boxed, so slow systems do not stretch the run). */
  readonly inFlightWindowMs: number;
}

export const DEFAULT_CALL_SETTINGS: CallSettings = {
  warmupCalls: 300,
  sequentialCalls: 2000,
  inFlight: 100,
  inFlightWindowMs: 600,
};

export interface CallRound {
  /** Median round trip of one call awaited before the next, in µs. */
  readonly seqCallUs: number;
  readonly inFlightCallsPerSec: number;
  /** CPU per call during the in-flight window, client process and server process, in µs. */
  readonly clientCpuUs: number;
  readonly serverCpuUs: number;
  /**
   * CPU per call while calls go one at a time, client and server, in µs: what a sequential call costs on caches the
   * other process (and any other work on the CPU) has just used, which decides its latency more than its code does.
   */
  readonly seqClientCpuUs: number;
  readonly seqServerCpuUs: number;
  /**
   * Each main thread's scheduling per sequential call (Linux), client and server: time on a CPU, time waiting for one,
   * and how often it was put on one. Undefined where /proc does not tell, or without the server's pid.
   */
  readonly seqSchedule?: { readonly client: SchedulePerCall; readonly server: SchedulePerCall };
}

/** Runs the sequential phase (e.g. with client and server on one CPU, `onOneCpu`). */
export type SequentialRunner = <T>(measure: () => Promise<T>) => Promise<T>;

export async function measureCalls(
  client: EchoClient,
  serverCpuMicros: () => Promise<number>,
  settings: CallSettings = DEFAULT_CALL_SETTINGS,
  sequentially: SequentialRunner = (measure) => measure(),
  serverPid?: number,
): Promise<CallRound> {
  for (let call = 0; call < settings.warmupCalls; call++) await client.echo(CALL_PAYLOAD);
  const sequential = await sequentially(async () => {
    const [serverAtStart, clientAtStart] = [await serverCpuMicros(), process.cpuUsage()];
    const schedules = () => [readThreadSchedule(process.pid), serverPid && readThreadSchedule(serverPid)] as const;
    const [clientSchedule, serverSchedule] = schedules();
    const us = await sequentialUs(client, settings.sequentialCalls);
    const [clientScheduleAfter, serverScheduleAfter] = schedules();
    const clientCpu = process.cpuUsage(clientAtStart);
    const calls = settings.sequentialCalls;
    const clientPerCall = schedulePerCall(clientSchedule, clientScheduleAfter, calls);
    const serverPerCall = schedulePerCall(serverSchedule || undefined, serverScheduleAfter || undefined, calls);
    return {
      us,
      clientCpuUs: clientCpu.user + clientCpu.system,
      serverCpuUs: (await serverCpuMicros()) - serverAtStart,
      schedule:
        clientPerCall === undefined || serverPerCall === undefined
          ? undefined
          : { client: clientPerCall, server: serverPerCall },
    };
  });
  const serverBefore = await serverCpuMicros();
  const clientBefore = process.cpuUsage();
  const { calls, seconds } = await inFlight(client, settings);
  const clientUsed = process.cpuUsage(clientBefore);
  const serverUsed = (await serverCpuMicros()) - serverBefore;
  return {
    seqCallUs: sequential.us,
    seqClientCpuUs: sequential.clientCpuUs / settings.sequentialCalls,
    seqServerCpuUs: sequential.serverCpuUs / settings.sequentialCalls,
    ...(sequential.schedule === undefined ? {} : { seqSchedule: sequential.schedule }),
    inFlightCallsPerSec: calls / seconds,
    clientCpuUs: (clientUsed.user + clientUsed.system) / calls,
    serverCpuUs: serverUsed / calls,
  };
}

async function sequentialUs(client: EchoClient, calls: number): Promise<number> {
  const times: number[] = [];
  for (let call = 0; call < calls; call++) {
    const start = performance.now();
    await client.echo(CALL_PAYLOAD);
    times.push((performance.now() - start) * 1000);
  }
  return median(times);
}

/** `inFlight` workers each keep one call outstanding until the window closes; in-flight calls then drain. */
async function inFlight(client: EchoClient, settings: CallSettings): Promise<{ calls: number; seconds: number }> {
  const start = performance.now();
  const deadline = start + settings.inFlightWindowMs;
  let calls = 0;
  const worker = async () => {
    while (performance.now() < deadline) {
      await client.echo(CALL_PAYLOAD);
      calls += 1;
    }
  };
  await Promise.all(Array.from({ length: settings.inFlight }, worker));
  return { calls, seconds: (performance.now() - start) / 1000 };
}
