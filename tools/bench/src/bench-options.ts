import { availableParallelism } from 'node:os';
import type { SystemName } from './server-process';
import { SYSTEMS } from './server-process';

export interface BenchOptions {
  readonly transport: 'unix' | 'tcp';
  /** Interleaved repetitions of every measurement. */
  readonly rounds: number;
  /** Servers started with `--cpu-prof`, their profiles written to out/profiles/. */
  readonly profile: readonly SystemName[];
  /** Only the call benchmark (e.g. while profiling). */
  readonly callsOnly: boolean;
  /** Busy-loop processes running during a second, loaded set of call rounds (0: quiet rounds only). */
  readonly load: number;
  /** Also count each side's callbacks per sequential call, by kind (one untimed round per system). */
  readonly hops: boolean;
}

/**
 * `--tcp`, `--rounds=N`, `--profile=pi[,raw-ws]`, `--calls-only`, `--load[=N]` (N busy loops; one per CPU when N is
 * not given), `--hops`; anything else is an error, not ignored.
 */
export function parseBenchOptions(args: readonly string[]): BenchOptions {
  let transport: BenchOptions['transport'] = 'unix';
  let rounds = 5;
  let profile: SystemName[] = [];
  let callsOnly = false;
  let load = 0;
  let hops = false;
  for (const arg of args) {
    const [flag, value] = arg.split('=', 2);
    if (flag === '--tcp') transport = 'tcp';
    else if (flag === '--calls-only') callsOnly = true;
    else if (flag === '--hops' && value === undefined) hops = true;
    else if (flag === '--rounds' && value !== undefined && Number.isInteger(Number(value)) && Number(value) > 0)
      rounds = Number(value);
    else if (flag === '--profile' && value !== undefined) profile = value.split(',').map(systemName);
    else if (flag === '--load' && value === undefined) load = availableParallelism();
    else if (flag === '--load' && value !== undefined && Number.isInteger(Number(value)) && Number(value) > 0)
      load = Number(value);
    else
      throw new Error(
        `Unknown option ${arg}; use --tcp, --rounds=N, --profile=<system,...>, --calls-only, --load[=N], --hops`,
      );
  }
  return { transport, rounds, profile, callsOnly, load, hops };
}

function systemName(value: string): SystemName {
  const found = SYSTEMS.find((system) => system === value);
  if (found === undefined) throw new Error(`Unknown system ${value}; one of ${SYSTEMS.join(', ')}`);
  return found;
}
