import { setTimeout as sleep } from 'node:timers/promises';
import type { PiClient } from '@pi/client';
import { RemoteError } from '@pi/remote';
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
const SETTLE_MS = 60_000;

export const clientsRow: SoakRow = {
  name: 'clients',
  what: 'clients × calls through @pi/client against one pi-session, then every client closed',
  timeLimitMs: (quick) => (quick ? 240_000 : 1_200_000),
  async run(context) {
    const clients = context.quick ? 20 : 200;
    const calls = context.quick ? 100 : 1_000;
    const what = `${count(clients)} @pi/client connections × ${count(calls)} sequential chat.operation calls each, all at once, against one pi-session; then every client closed and the session's RSS and open fds watched until back at their baseline`;
    const home = await context.home();
    const session = await startSessionProgram(home, home.folders.project);
    context.defer(() => session.stop());

    // Warm up first, so the baseline already holds what the first connections load once (code, caches).
    await runClients(session, 10, 50);
    await sleep(2_000);
    const baseline = footprintOf(session.pid);
    context.log(`baseline RSS ${mib(baseline.rss)}, ${baseline.fds} fds; ${clients} clients × ${calls} calls`);

    const peak = samplePeak(session.pid);
    const started = performance.now();
    const run = await runClients(session, clients, calls);
    const seconds = (performance.now() - started) / 1000;
    const top = peak.stop();
    const backToBaseline = (now: Footprint) => now.fds <= baseline.fds && now.rss <= baseline.rss + RSS_SLACK_BYTES;
    const after = await settleTowards(session.pid, backToBaseline, SETTLE_MS);
    const latency = summarizeLatencies(run.latencies);
    return judge('clients', {
      what,
      counts: [
        `${count(run.completed)} calls completed, ${count(run.errors)} errors (${run.errorSamples.join('; ') || 'none'})`,
        `${count(clients)} clients connected, ${count(run.connectFailures)} refused`,
      ],
      figures: [
        latencyText(latency),
        `${count(Math.round(run.completed / seconds))} calls/s over ${seconds.toFixed(0)} s`,
        `RSS ${mib(baseline.rss)} → peak ${mib(top.rss)} → ${mib(after.rss)} after (${mibChange(after.rss - baseline.rss)})`,
        `fds ${baseline.fds} → peak ${top.fds} → ${after.fds} after`,
      ],
      checks: [
        {
          label: `every call completed (${count(run.completed)} of ${count(clients * calls)})`,
          ok: run.completed === clients * calls,
        },
        { label: `0 errors (${count(run.errors)})`, ok: run.errors === 0 && run.connectFailures === 0 },
        { label: `open fds back to the baseline ${baseline.fds} (${after.fds})`, ok: after.fds <= baseline.fds },
        {
          label: `RSS back within ${mib(RSS_SLACK_BYTES)} of the baseline ${mib(baseline.rss)} (${mib(after.rss)})`,
          ok: after.rss <= baseline.rss + RSS_SLACK_BYTES,
        },
      ],
    });
  },
};

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
      connectClient(address).catch((error: unknown) => {
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

function note(run: ClientsRun, error: unknown): void {
  if (run.errorSamples.length >= 3) return;
  run.errorSamples.push(error instanceof RemoteError ? `${error.code}: ${error.message}` : String(error));
}
