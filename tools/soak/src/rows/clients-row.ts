import { setTimeout as sleep } from 'node:timers/promises';
import type { PiClient } from '@pi/client';
import { RemoteError } from '@pi/remote';
import { DEFAULT_RECONNECT } from '@pi/transport-trpc';
import { count, latencyText, mib, mibChange, summarizeLatencies } from '../figures';
import { judge } from '../row-report';
import { connectClient } from '../session-client';
import { footprintOf, samplePeak, settleTowards, type Footprint } from '../session-footprint';
import { startSessionProgram, type SessionAddress } from '../session-program';
import type { SoakRow } from '../soak-row';

/**
 * What "back to baseline" allows for memory: V8 and the allocator keep some of what a burst made them take, and
 * the process has no `--expose-gc` to force it back. A leak of the connections' state is far more than this.
 */
export const RSS_SLACK_BYTES = 24 * 1024 * 1024;
/** A second wave may leave at most this much more than the first did: state kept per connection or call would. */
export const WAVE_GROWTH_BYTES = 8 * 1024 * 1024;
const WAVES = 2;
const SETTLE_MS = 60_000;

export const clientsRow: SoakRow = {
  name: 'clients',
  what: 'clients × calls through @pi/client against one pi-session, then every client closed',
  timeLimitMs: (quick) => (quick ? 300_000 : 1_200_000),
  async run(context) {
    const clients = context.quick ? 20 : 200;
    const calls = context.quick ? 100 : 1_000;
    const what = `${count(clients)} @pi/client connections × ${count(calls)} sequential chat.operation calls each, all at once, against one pi-session; then every client closed and the session's RSS and open fds watched until back at their baseline; twice`;
    const home = await context.home();
    const session = await startSessionProgram(home, home.folders.project);
    context.defer(() => session.stop());

    const refusedBurst = await refusedWithoutRetry(session, clients);
    context.log(`${refusedBurst} of ${clients} connects at once refused without a retry`);
    // Warm up first, so the baseline already holds what the first connections load once (code, caches).
    await runClients(session, 10, 50);
    await sleep(2_000);
    const baseline = footprintOf(session.pid);
    context.log(`baseline RSS ${mib(baseline.rss)}, ${baseline.fds} fds; ${clients} clients × ${calls} calls`);

    const waves: Wave[] = [];
    for (let wave = 1; wave <= WAVES && !context.signal.aborted; wave++) {
      // The first wave must bring memory back near the baseline; each later one no higher than the first left it.
      const ceiling = wave === 1 ? baseline.rss + RSS_SLACK_BYTES : (waves[0]?.after.rss ?? 0) + WAVE_GROWTH_BYTES;
      const peak = samplePeak(session.pid);
      const started = performance.now();
      const run = await runClients(session, clients, calls);
      const seconds = (performance.now() - started) / 1000;
      const top = peak.stop();
      const after = await settleTowards(session.pid, (now) => now.fds <= baseline.fds && now.rss <= ceiling, SETTLE_MS);
      context.log(`wave ${wave}: peak ${mib(top.rss)}, after ${mib(after.rss)}, ${after.fds} fds`);
      waves.push({ run, seconds, top, after, ceiling });
    }
    const completed = waves.reduce((all, wave) => all + wave.run.completed, 0);
    const errors = waves.reduce((all, wave) => all + wave.run.errors + wave.run.connectFailures, 0);
    const samples = waves.flatMap((wave) => wave.run.errorSamples).slice(0, 3);
    const latency = summarizeLatencies(Float64Array.from(waves.flatMap((wave) => [...wave.run.latencies])));
    const [first, second] = waves;
    return judge('clients', {
      what,
      counts: [
        `${WAVES} waves: ${count(completed)} calls completed, ${count(errors)} errors (${samples.join('; ') || 'none'})`,
        `${count(clients)} clients connected per wave`,
        // Reported, not judged: a tool that opts out of reconnecting sees these refusals as errors.
        `${count(clients)} connects at once without retry: ${count(refusedBurst)} refused`,
      ],
      figures: [
        latencyText(latency),
        ...waves.map(
          (wave) => `${count(Math.round(wave.run.completed / wave.seconds))} calls/s over ${wave.seconds.toFixed(0)} s`,
        ),
        `RSS ${mib(baseline.rss)}; ${waves.map((wave) => `peak ${mib(wave.top.rss)} → ${mib(wave.after.rss)}`).join('; ')}`,
        `fds ${baseline.fds}; ${waves.map((wave) => `peak ${wave.top.fds} → ${wave.after.fds}`).join('; ')}`,
      ],
      checks: [
        {
          label: `every call completed (${count(completed)} of ${count(WAVES * clients * calls)})`,
          ok: completed === WAVES * clients * calls,
        },
        { label: `0 errors (${count(errors)})`, ok: errors === 0 },
        {
          label: `open fds back to the baseline ${baseline.fds} after each wave (${waves.map((wave) => wave.after.fds).join(', ')})`,
          ok: waves.length === WAVES && waves.every((wave) => wave.after.fds <= baseline.fds),
        },
        {
          label: `RSS back within ${mib(RSS_SLACK_BYTES)} of the baseline ${mib(baseline.rss)} after the first wave (${mib(first?.after.rss ?? Number.NaN)})`,
          ok: first !== undefined && first.after.rss <= first.ceiling,
        },
        {
          label: `RSS after the second wave at most ${mib(WAVE_GROWTH_BYTES)} above the first's (${mibChange((second?.after.rss ?? Number.NaN) - (first?.after.rss ?? Number.NaN))})`,
          ok: second !== undefined && second.after.rss <= second.ceiling,
        },
      ],
    });
  },
};

/** One wave of clients: the calls, and the session's footprint at its peak and once the clients left. */
interface Wave {
  readonly run: ClientsRun;
  readonly seconds: number;
  readonly top: Footprint;
  readonly after: Footprint;
  readonly ceiling: number;
}

interface ClientsRun {
  completed: number;
  errors: number;
  connectFailures: number;
  readonly errorSamples: string[];
  readonly latencies: Float64Array;
}

/** Connects `clients` clients at once, has each make `calls` calls one after another, then closes them all. */
async function runClients(address: SessionAddress, clients: number, calls: number): Promise<ClientsRun> {
  const run: ClientsRun = {
    completed: 0,
    errors: 0,
    connectFailures: 0,
    errorSamples: [],
    latencies: new Float64Array(clients * calls),
  };
  const connected = await Promise.all(
    Array.from({ length: clients }, () =>
      // The library's defaults, as a user's tool connects: a host that says "try again later" is tried again.
      connectClient(address, { reconnect: DEFAULT_RECONNECT }).catch((error: unknown) => {
        run.connectFailures++;
        note(run, error);
        return undefined;
      }),
    ),
  );
  const callsOf = async (client: PiClient | undefined, index: number) => {
    if (client === undefined) return;
    for (let call = 0; call < calls; call++) {
      const started = performance.now();
      try {
        await client.call('chat', 'operation', [{ operationId: `soak-${index}-${call}` }]);
        run.latencies[run.completed++] = performance.now() - started;
      } catch (error) {
        run.errors++;
        note(run, error);
      }
    }
  };
  await Promise.all(connected.map(callsOf));
  for (const client of connected) client?.close();
  return { ...run, latencies: run.latencies.subarray(0, run.completed) };
}

/** Connects `clients` clients at once that do not retry, as a tool with `reconnect: false` does: how many fail. */
async function refusedWithoutRetry(address: SessionAddress, clients: number): Promise<number> {
  const connected = await Promise.all(
    Array.from({ length: clients }, () => connectClient(address).catch(() => undefined)),
  );
  for (const client of connected) client?.close();
  await sleep(1_000);
  return connected.filter((client) => client === undefined).length;
}

function note(run: ClientsRun, error: unknown): void {
  if (run.errorSamples.length >= 3) return;
  run.errorSamples.push(error instanceof RemoteError ? `${error.code}: ${error.message}` : String(error));
}
