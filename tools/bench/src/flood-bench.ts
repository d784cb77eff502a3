import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_CONNECTION_LIMITS } from '@pi/transport-trpc';
import { REQUESTS_PER_TURN_ENV, type FloodShape } from './flood/flood-protocol';
import { Bystander, measureFloodRound, type FloodRound, type FloodSettings } from './flood/flood-round';
import { spawnFlooder, type FlooderProcess } from './flood/flooder-process';
import { spawnServer, type ServerProcess } from './server-process';
import { spread } from './stats';
import { formatSpread, formatTable } from './text-table';

/**
 * `npm run bench:flood` (`nx run @pi/bench:flood`): one connection sends 10,000 subscriptions at once while another
 * makes one call after another; how long do the bystander's calls take, during the flood and without it? Measured
 * against pi's host as shipped (each connection starts 32 requests per turn) and the same host without fairness
 * (`--shares=…,Infinity`: every request started as it is read, as before), on a quiet machine and under busy loops on
 * every CPU. Options: `--rounds=N` (5), `--load=N` busy loops for the loaded rows (2; 0 skips them), `--count=N`
 * (10,000), `--shapes=batch,frames`, `--shares=32,Infinity` (requests per turn, one host each). The table goes to
 * stdout, progress to stderr, figures to out/flood.json.
 */
interface Options {
  readonly rounds: number;
  readonly load: number;
  readonly shapes: readonly FloodShape[];
  /** Requests per turn, one host each; `Infinity` is no fairness. */
  readonly shares: readonly number[];
  readonly settings: FloodSettings;
}

function parseOptions(args: readonly string[]): Options {
  const options = {
    rounds: 5,
    load: 2,
    shapes: ['batch', 'frames'] as FloodShape[],
    shares: [DEFAULT_CONNECTION_LIMITS.requestsPerTurn, Number.POSITIVE_INFINITY],
    count: 10_000,
  };
  for (const arg of args) {
    const [flag, value = ''] = arg.split('=', 2);
    const number = Number(value);
    const shares = value.split(',').map(Number);
    if (flag === '--rounds' && Number.isInteger(number) && number > 0) options.rounds = number;
    else if (flag === '--load' && Number.isInteger(number) && number >= 0) options.load = number;
    else if (flag === '--count' && Number.isInteger(number) && number > 0) options.count = number;
    else if (flag === '--shapes' && value.split(',').every((shape) => shape === 'batch' || shape === 'frames'))
      options.shapes = value.split(',') as FloodShape[];
    else if (flag === '--shares' && shares.every((share) => share >= 1)) options.shares = shares;
    else
      throw new Error(
        `Unknown option ${arg}; use --rounds=N, --load=N, --count=N, --shapes=batch,frames, --shares=32,Infinity`,
      );
  }
  return { ...options, settings: { count: options.count, quietCalls: 1_000 } };
}

/** A host's name in the table. */
function variantName(share: number): string {
  return share === Number.POSITIVE_INFINITY ? 'no fairness' : `${share}/turn`;
}

/** Busy loops, one process each, at the bench's own priority: a machine whose CPUs are all taken. */
function startLoad(processes: number): ChildProcess[] {
  return Array.from({ length: processes }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
}

/** pi's flood server with a share per turn; the child reads it from its environment, inherited at the spawn. */
async function startServer(share: number, directory: string): Promise<ServerProcess> {
  const entry = fileURLToPath(new URL('./flood/flood.server.ts', import.meta.url));
  process.env[REQUESTS_PER_TURN_ENV] = String(share);
  try {
    return await spawnServer('pi', { listenOn: join(directory, `${share}.sock`), entry });
  } finally {
    delete process.env[REQUESTS_PER_TURN_ENV];
  }
}

/** condition → host → shape → rounds */
type Results = Record<string, Record<string, Partial<Record<FloodShape, FloodRound[]>>>>;

async function runCondition(
  name: string,
  options: Options,
  flooder: FlooderProcess,
  log: (line: string) => void,
): Promise<Results[string]> {
  const directory = await mkdtemp(join(tmpdir(), 'pi-flood-'));
  const variants = options.shares.map(variantName);
  const servers = new Map<string, { server: ServerProcess; bystander: Bystander }>();
  const results: Results[string] = Object.fromEntries(variants.map((variant) => [variant, {}]));
  try {
    for (const share of options.shares) {
      const server = await startServer(share, directory);
      servers.set(variantName(share), { server, bystander: new Bystander(server.url) });
    }
    // One unmeasured round each, so both ends run optimized code.
    for (const { server, bystander } of servers.values())
      await measureFloodRound(server, bystander, flooder, 'batch', options.settings);
    for (let round = 0; round < options.rounds; round++) {
      // Interleaved, the order rotating each round: these machines drift within a run.
      const order = variants.map((_, index) => variants[(index + round) % variants.length] as string);
      for (const variant of order)
        for (const shape of options.shapes) {
          const { server, bystander } = servers.get(variant) as { server: ServerProcess; bystander: Bystander };
          const measured = await measureFloodRound(server, bystander, flooder, shape, options.settings);
          ((results[variant] as Results[string][string])[shape] ??= []).push(measured);
          log(
            `${name} round ${round + 1} ${variant} ${shape}: flood ${measured.floodMs.toFixed(0)} ms, bystander ` +
              `max ${(measured.flooded.max / 1000).toFixed(1)} ms over ${measured.flooded.calls} calls`,
          );
        }
    }
  } finally {
    for (const { server, bystander } of servers.values()) {
      bystander.close();
      await server.stop();
    }
    await rm(directory, { recursive: true, force: true });
  }
  return results;
}

function tableRows(results: Results): string[][] {
  const rows: string[][] = [];
  const figure = (values: number[], decimals = 0) => formatSpread(spread(values), decimals);
  for (const [condition, variants] of Object.entries(results))
    for (const [variant, shapes] of Object.entries(variants))
      for (const [shape, rounds] of Object.entries(shapes)) {
        if (rounds === undefined) continue;
        if (shape === Object.keys(shapes)[0]) {
          const quiet = rounds.map((round) => round.quiet);
          rows.push([
            `${condition} · ${variant} · no flood`,
            figure(quiet.map((latency) => latency.calls)),
            figure(quiet.map((latency) => latency.p50)),
            figure(quiet.map((latency) => latency.p99)),
            figure(quiet.map((latency) => latency.max)),
            '',
            '',
            '',
          ]);
        }
        const flooded = rounds.map((round) => round.flooded);
        rows.push([
          `${condition} · ${variant} · flood (${shape})`,
          figure(flooded.map((latency) => latency.calls)),
          figure(flooded.map((latency) => latency.p50)),
          figure(flooded.map((latency) => latency.p99)),
          figure(flooded.map((latency) => latency.max)),
          figure(rounds.map((round) => round.floodMs)),
          figure(rounds.map((round) => round.hostCpuMs)),
          String(rounds.reduce((sum, round) => sum + round.bystanderDrops, 0)),
        ]);
      }
  return rows;
}

const options = parseOptions(process.argv.slice(2));
const log = (line: string) => process.stderr.write(`${line}\n`);
const flooder = await spawnFlooder();
const results: Results = {};
try {
  results['quiet'] = await runCondition('quiet', options, flooder, log);
  if (options.load > 0) {
    const load = startLoad(options.load);
    try {
      results[`${options.load} busy loops`] = await runCondition(`load ${options.load}`, options, flooder, log);
    } finally {
      for (const child of load) child.kill();
    }
  }
} finally {
  await flooder.stop();
}
const header = ['bystander calls', 'calls', 'p50 µs', 'p99 µs', 'max µs', 'flood answered ms', 'host CPU ms', 'drops'];
const out = fileURLToPath(new URL('../out/', import.meta.url));
await mkdir(out, { recursive: true });
await writeFile(`${out}flood.json`, `${JSON.stringify({ options, results }, null, 2)}\n`);
process.stdout.write(
  [
    `flood: ${options.settings.count.toLocaleString('en-US')} $watch subscriptions at once on one connection; ` +
      `median [min–max] over ${options.rounds} rounds`,
    '',
    ...formatTable(header, tableRows(results)),
    '',
    'written: tools/bench/out/flood.json',
  ].join('\n') + '\n',
);
