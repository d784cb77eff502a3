/**
 * What one PostgreSQL and N coordinator replicas sustain, on this machine: sessions created per second (each a
 * record write through one replica's repository), directory changes fanned out per second (each write heard by every
 * replica through LISTEN/NOTIFY and read back, as the coordinator's Fleet does), and the latencies' p50/p99.
 *
 * `npx tsx tools/fleet-e2e/src/load-simulation.ts [writes per run] [concurrency]`: starts its own throwaway cluster
 * on 127.0.0.1, runs a bounded number of writes for 1, 2 and 4 replicas, prints a Markdown table, and stops.
 */
import { randomBytes } from 'node:crypto';
import { openPostgresSessionRepo, type PostgresSessionRepo } from '@pi/session-repo';
import { startPostgresCluster } from '@pi/test-support/postgres';

const WRITES = Number(process.argv[2] ?? 2000);
const CONCURRENCY = Number(process.argv[3] ?? 16);
const REPLICA_COUNTS = [1, 2, 4];

interface RunResult {
  readonly replicas: number;
  readonly createsPerSecond: number;
  readonly createP50: number;
  readonly createP99: number;
  readonly fanOutPerSecond: number;
  readonly heardP50: number;
  readonly heardP99: number;
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function run(url: string, replicas: number): Promise<RunResult> {
  const schema = `load_${randomBytes(4).toString('hex')}`;
  const repos: PostgresSessionRepo[] = [];
  for (let index = 0; index < replicas; index += 1) {
    const opened = await openPostgresSessionRepo({ url, schema });
    if (opened.isErr()) throw new Error(opened.error.message);
    repos.push(opened.value);
  }
  const sentAt = new Map<string, number>();
  const heard: number[] = [];
  let deliveries = 0;
  const expected = WRITES * replicas;
  let allHeard: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (allHeard = resolve));
  for (const repo of repos) {
    repo.shared.onChange((change) => {
      if (change.kind !== 'created') return;
      // Read back in the replica's scope, as the Fleet does before its directory hears of it.
      void repo.get(change.sessionId).then(() => {
        const started = sentAt.get(change.sessionId);
        if (started !== undefined) heard.push(performance.now() - started);
        deliveries += 1;
        if (deliveries === expected) allHeard();
      });
    });
    await repo.shared.listening();
  }

  const createLatency: number[] = [];
  let next = 0;
  const began = performance.now();
  const worker = async () => {
    while (next < WRITES) {
      const index = next++;
      const sessionId = `load-${index}`;
      const repo = repos[index % replicas] as PostgresSessionRepo;
      const at = performance.now();
      sentAt.set(sessionId, at);
      const created = await repo.create({
        sessionId,
        title: `load ${index}`,
        workspaceId: `w-${index % 50}`,
        ownerId: 'load',
        cwd: '/load',
      });
      if (created.isErr()) throw new Error(created.error.message);
      createLatency.push(performance.now() - at);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const writesDone = performance.now();
  await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 60_000).unref())]);
  const fannedOut = performance.now();
  for (const repo of repos) await repo.close();
  return {
    replicas,
    createsPerSecond: WRITES / ((writesDone - began) / 1000),
    createP50: percentile(createLatency, 50),
    createP99: percentile(createLatency, 99),
    fanOutPerSecond: deliveries / ((fannedOut - began) / 1000),
    heardP50: percentile(heard, 50),
    heardP99: percentile(heard, 99),
  };
}

const started = await startPostgresCluster();
if (!started.ok) {
  process.stderr.write(`load simulation: ${started.reason}\n`);
  process.exit(1);
}
try {
  const rows: RunResult[] = [];
  for (const replicas of REPLICA_COUNTS) rows.push(await run(started.cluster.url, replicas));
  const ms = (value: number) => value.toFixed(1);
  process.stdout.write(
    `${WRITES} creates per run, ${CONCURRENCY} at a time, spread over the replicas\n\n` +
      '| replicas | creates/s | create p50 ms | create p99 ms | changes heard/s (all replicas) | heard p50 ms | heard p99 ms |\n' +
      '|---|---|---|---|---|---|---|\n' +
      rows
        .map(
          (row) =>
            `| ${row.replicas} | ${row.createsPerSecond.toFixed(0)} | ${ms(row.createP50)} | ${ms(row.createP99)} | ` +
            `${row.fanOutPerSecond.toFixed(0)} | ${ms(row.heardP50)} | ${ms(row.heardP99)} |`,
        )
        .join('\n') +
      '\n',
  );
} finally {
  await started.cluster.stop();
}
