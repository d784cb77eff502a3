import { describe, expect, it } from 'vitest';
import { COORDINATOR_NODE_FLAGS, SESSION_NODE_FLAGS, nodeArguments } from './node-flags';

describe('node flags of the processes the coordinator starts', () => {
  it('go before the arguments node was given', () => {
    expect(nodeArguments(['--max-semi-space-size=1'], ['--import', 'tsx'], undefined)).toEqual([
      '--max-semi-space-size=1',
      '--import',
      'tsx',
    ]);
  });

  it('leave out an option the user gave on the command line or in NODE_OPTIONS, whose value wins', () => {
    const flags = ['--max-semi-space-size=1', '--optimize-for-size'];
    expect(nodeArguments(flags, ['--max-semi-space-size=8'], undefined)).toEqual([
      '--optimize-for-size',
      '--max-semi-space-size=8',
    ]);
    expect(nodeArguments(flags, [], ' --max-semi-space-size=4  --trace-gc ')).toEqual(['--optimize-for-size']);
    expect(nodeArguments(flags, [], '--optimize-for-size')).toEqual(['--max-semi-space-size=1']);
    expect(nodeArguments(flags, ['--max_semi_space_size=4'], undefined)).toEqual([
      '--optimize-for-size',
      '--max_semi_space_size=4',
    ]);
  });

  it('cap the young generation of sessions and of the coordinator', () => {
    expect(SESSION_NODE_FLAGS).toContain('--max-semi-space-size=1');
    expect(COORDINATOR_NODE_FLAGS).toContain('--max-semi-space-size=1');
  });

  it('give sessions and the coordinator one V8 worker thread', () => {
    expect(SESSION_NODE_FLAGS).toContain('--v8-pool-size=1');
    expect(COORDINATOR_NODE_FLAGS).toContain('--v8-pool-size=1');
    // A pool size the user gave wins, as any option does.
    expect(nodeArguments(SESSION_NODE_FLAGS, ['--v8-pool-size=4'], undefined)).toEqual([
      '--max-semi-space-size=1',
      '--v8-pool-size=4',
    ]);
  });
});
