import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS, parseAgentsOptions } from './agents-options';

describe('parseAgentsOptions', () => {
  it('defaults to 50 turns, 30 idle keys and 3 pairs of long answers, for both agents', () => {
    expect(parseAgentsOptions([])).toEqual(DEFAULT_OPTIONS);
    expect(DEFAULT_OPTIONS).toMatchObject({
      turns: 50,
      keys: 30,
      streams: 3,
      restMs: 120_000,
      agents: ['pi', 'upstream'],
    });
  });

  it('reads every option; counts given beside --quick win over its own', () => {
    expect(parseAgentsOptions(['--turns=20', '--keys=5', '--streams=2', '--rest=30', '--only=upstream'])).toMatchObject(
      { turns: 20, keys: 5, streams: 2, restMs: 30_000, agents: ['upstream'] },
    );
    const quick = parseAgentsOptions(['--turns=9', '--quick']);
    expect(quick).toMatchObject({ turns: 9, keys: 4, streams: 1, restMs: 2000 });
    expect(quick.shape.streamPieces).toBeLessThan(DEFAULT_OPTIONS.shape.streamPieces);
  });

  it('rejects what it does not know, and too few turns for the long answers', () => {
    expect(() => parseAgentsOptions(['--turns=0'])).toThrow(/Unknown option --turns=0/);
    expect(() => parseAgentsOptions(['--rounds=3'])).toThrow(/Unknown option/);
    expect(() => parseAgentsOptions(['--quick=yes'])).toThrow(/Unknown option/);
    expect(() => parseAgentsOptions(['--rest=0.5'])).toThrow(/Unknown option --rest=0.5/);
    expect(() => parseAgentsOptions(['--only=claude'])).toThrow(/Unknown agent claude/);
    expect(() => parseAgentsOptions(['--turns=4', '--streams=2'])).toThrow(/leaves no room/);
  });
});
