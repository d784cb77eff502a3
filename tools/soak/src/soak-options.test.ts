import { describe, expect, it } from 'vitest';
import { ROW_NAMES } from './row-names';
import { DEFAULT_SEED, parseSoakOptions } from './soak-options';

describe('parseSoakOptions', () => {
  it('runs every row at release size with the default seed when given nothing', () => {
    expect(parseSoakOptions([])._unsafeUnwrap()).toEqual({
      help: false,
      quick: false,
      rows: ROW_NAMES,
      seed: DEFAULT_SEED,
    });
  });

  it('reads --quick, --seed and --only, keeping the rows in table order', () => {
    expect(parseSoakOptions(['--quick', '--only', 'kill', '--only=fuzz', '--seed', '7'])._unsafeUnwrap()).toMatchObject(
      { quick: true, rows: ['fuzz', 'kill'], seed: 7 },
    );
  });

  it('takes several rows separated by commas', () => {
    expect(parseSoakOptions(['--only', 'full-disk, clients'])._unsafeUnwrap().rows).toEqual(['clients', 'full-disk']);
  });

  it('refuses an unknown row, naming the rows there are', () => {
    expect(parseSoakOptions(['--only', 'fuzzz'])._unsafeUnwrapErr()).toBe(
      `Unknown row "fuzzz": use one of ${ROW_NAMES.join(', ')}`,
    );
  });

  it('refuses an unknown flag, a missing value and a positional argument', () => {
    expect(parseSoakOptions(['--fast'])._unsafeUnwrapErr()).toMatch(/Unknown option '--fast'.*\(see --help\)$/);
    expect(parseSoakOptions(['--only'])._unsafeUnwrapErr()).toMatch(/--only.*argument missing.*\(see --help\)$/);
    expect(parseSoakOptions(['fuzz'])._unsafeUnwrapErr()).toMatch(/Unexpected argument 'fuzz'/);
  });

  it('refuses a seed that is not a whole number in 32 bits', () => {
    for (const seed of ['-1', '1e3', '0x10', '4294967296', '']) {
      expect(parseSoakOptions([`--seed=${seed}`])._unsafeUnwrapErr()).toBe(
        `--seed must be a whole number from 0 to 4294967295, got "${seed}"`,
      );
    }
  });
});
