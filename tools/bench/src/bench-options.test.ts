import { describe, expect, it } from 'vitest';
import { parseBenchOptions } from './bench-options';

describe('parseBenchOptions', () => {
  it('defaults to five rounds over a Unix socket', () => {
    expect(parseBenchOptions([])).toEqual({ transport: 'unix', rounds: 5, profile: [], callsOnly: false });
  });

  it('reads every option', () => {
    expect(parseBenchOptions(['--tcp', '--rounds=3', '--profile=pi,raw-ws', '--calls-only'])).toEqual({
      transport: 'tcp',
      rounds: 3,
      profile: ['pi', 'raw-ws'],
      callsOnly: true,
    });
  });

  it('rejects what it does not know', () => {
    expect(() => parseBenchOptions(['--rounds=0'])).toThrow(/Unknown option/);
    expect(() => parseBenchOptions(['--profile=grpc'])).toThrow(/Unknown system/);
  });
});
