import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { parseBenchOptions } from './bench-options';

describe('parseBenchOptions', () => {
  it('defaults to five rounds over a Unix socket', () => {
    expect(parseBenchOptions([])).toEqual({
      transport: 'unix',
      rounds: 5,
      profile: [],
      callsOnly: false,
      load: 0,
      hops: false,
    });
  });

  it('reads every option', () => {
    const args = ['--tcp', '--rounds=3', '--profile=pi,raw-ws', '--calls-only', '--load=3', '--hops'];
    expect(parseBenchOptions(args)).toEqual({
      transport: 'tcp',
      rounds: 3,
      profile: ['pi', 'raw-ws'],
      callsOnly: true,
      load: 3,
      hops: true,
    });
  });

  it('loads every CPU with a busy loop when --load names no count', () => {
    expect(parseBenchOptions(['--load']).load).toBe(availableParallelism());
  });

  it('rejects what it does not know', () => {
    expect(() => parseBenchOptions(['--rounds=0'])).toThrow(/Unknown option/);
    expect(() => parseBenchOptions(['--profile=grpc'])).toThrow(/Unknown system/);
    expect(() => parseBenchOptions(['--load=0'])).toThrow(/Unknown option --load=0/);
    expect(() => parseBenchOptions(['--load=two'])).toThrow(/Unknown option/);
    expect(() => parseBenchOptions(['--hops=2'])).toThrow(/Unknown option --hops=2/);
  });
});
