import { fileURLToPath } from 'node:url';

export interface CatalogBenchOptions {
  /**
   * The workspaces whose pi-session runs, measured in turn each round (`--root=/tmp/before,.` compares a checkout
   * of an earlier commit with this one on the same machine at the same time).
   */
  readonly roots: readonly string[];
  /** Catalogue sizes, in models. */
  readonly sizes: readonly number[];
  /** Presentations watching Models while the catalogue loads. */
  readonly watchers: number;
  readonly rounds: number;
  /** Sessions run with `--cpu-prof`, their profiles written to out/profiles/. */
  readonly profile: boolean;
}

/** This workspace's root, with a trailing slash. */
export const WORKSPACE = fileURLToPath(new URL('../../../../', import.meta.url));

/** `--root=DIR[,DIR]`, `--sizes=1000,2000`, `--watchers=N`, `--rounds=N`, `--profile`; anything else is an error. */
export function parseCatalogBenchOptions(
  args: readonly string[],
  defaultSizes: readonly number[],
): CatalogBenchOptions {
  let options: CatalogBenchOptions = {
    roots: [WORKSPACE],
    sizes: defaultSizes,
    watchers: 2,
    rounds: 3,
    profile: false,
  };
  for (const arg of args) {
    const [flag, value] = arg.split('=', 2);
    if (flag === '--root' && value !== undefined && value.split(',').every((root) => root !== ''))
      options = { ...options, roots: value.split(',').map((root) => (root === '.' ? WORKSPACE : root)) };
    else if (flag === '--sizes' && value !== undefined && value.split(',').every(isCount))
      options = { ...options, sizes: value.split(',').map(Number) };
    else if (flag === '--watchers' && isCount(value)) options = { ...options, watchers: Number(value) };
    else if (flag === '--rounds' && isCount(value)) options = { ...options, rounds: Number(value) };
    else if (flag === '--profile' && value === undefined) options = { ...options, profile: true };
    else
      throw new Error(`Unknown option ${arg}; use --root=DIR[,DIR], --sizes=N,N, --watchers=N, --rounds=N, --profile`);
  }
  return options;
}

function isCount(value: string | undefined): boolean {
  return value !== undefined && Number.isInteger(Number(value)) && Number(value) > 0;
}
