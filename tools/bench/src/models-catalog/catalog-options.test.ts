import { describe, expect, it } from 'vitest';
import { parseCatalogBenchOptions } from './catalog-options';

describe('parseCatalogBenchOptions', () => {
  it('runs this workspace at the default sizes, two watchers, three rounds', () => {
    const options = parseCatalogBenchOptions([], [1000, 2000]);
    expect(options).toMatchObject({ sizes: [1000, 2000], watchers: 2, rounds: 3, profile: false });
    expect(options.roots).toEqual([expect.stringMatching(/\/$/)]);
  });

  it('reads every option', () => {
    expect(
      parseCatalogBenchOptions(
        ['--root=/tmp/before,/tmp/after', '--sizes=10,20', '--watchers=1', '--rounds=5', '--profile'],
        [1000],
      ),
    ).toEqual({ roots: ['/tmp/before', '/tmp/after'], sizes: [10, 20], watchers: 1, rounds: 5, profile: true });
  });

  it('reads . as this workspace', () => {
    expect(parseCatalogBenchOptions(['--root=/tmp/before,.'], [1000]).roots).toEqual([
      '/tmp/before',
      parseCatalogBenchOptions([], [1000]).roots[0],
    ]);
  });

  it('rejects what it does not know', () => {
    expect(() => parseCatalogBenchOptions(['--sizes=10,x'], [1000])).toThrow(/Unknown option/);
    expect(() => parseCatalogBenchOptions(['--rounds=0'], [1000])).toThrow(/Unknown option/);
    expect(() => parseCatalogBenchOptions(['--fast'], [1000])).toThrow(/Unknown option/);
  });
});
