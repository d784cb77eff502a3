import { parseArgs } from 'node:util';
import { err, ok, type Result } from 'neverthrow';
import { ROW_NAMES, isRowName, type RowName } from './row-names';

export interface SoakOptions {
  readonly help: boolean;
  /** Smaller counts everywhere: a few minutes instead of the release run. */
  readonly quick: boolean;
  /** The rows to run, in table order. */
  readonly rows: readonly RowName[];
  /** The fuzzer's seed: a run that found something is replayed with it. */
  readonly seed: number;
}

export const DEFAULT_SEED = 19;

export const USAGE = `Usage: npm run soak -- [options]

Runs pi's real programs (pi-session, pi-coordinator) in a temporary home, on loopback only, through hostile
and heavy use, and prints one row per case: what was done, the counts, the figures, PASS, FAIL or SKIP.
Exits 1 when a row fails.

Options:
  --quick             smaller counts (a development run); the release run is the default
  --only ROW          run only this row (repeat it, or give several separated by commas)
  --seed N            the fuzzer's seed, 0 to 4294967295 (default ${DEFAULT_SEED})
  -h, --help          show this help

Rows: ${ROW_NAMES.join(', ')}
`;

/** Parses argv strictly: an unknown flag, row or a bad seed is one clear error line. */
export function parseSoakOptions(argv: readonly string[]): Result<SoakOptions, string> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        help: { type: 'boolean', short: 'h' },
        quick: { type: 'boolean' },
        only: { type: 'string', multiple: true },
        seed: { type: 'string' },
      },
    });
  } catch (error) {
    return err(`${error instanceof Error ? error.message : String(error)} (see --help)`);
  }
  const { values } = parsed;
  const named = (values.only ?? []).flatMap((value) => value.split(',')).map((name) => name.trim());
  const unknown = named.find((name) => !isRowName(name));
  if (unknown !== undefined) return err(`Unknown row "${unknown}": use one of ${ROW_NAMES.join(', ')}`);
  const seedText = values.seed ?? String(DEFAULT_SEED);
  // Digits only: Number() would also accept "1e3", " 7" or "0x10".
  if (!/^[0-9]{1,10}$/.test(seedText) || Number(seedText) > 0xffffffff) {
    return err(`--seed must be a whole number from 0 to 4294967295, got "${seedText}"`);
  }
  return ok({
    help: values.help === true,
    quick: values.quick === true,
    rows: named.length === 0 ? ROW_NAMES : ROW_NAMES.filter((row) => named.includes(row)),
    seed: Number(seedText),
  });
}
