import { describe, expect, expectTypeOf, it } from 'vitest';
import { THINKING_LEVELS, thinkingLevelSchema, type ThinkingLevel } from './thinking-level';

describe('thinking levels', () => {
  it('are off, low and high, in the order cycling walks', () => {
    expect(THINKING_LEVELS).toEqual(['off', 'low', 'high']);
    expect(Object.isFrozen(THINKING_LEVELS)).toBe(true);
    expectTypeOf<ThinkingLevel>().toEqualTypeOf<'off' | 'low' | 'high'>();
  });

  it('are what the schema accepts, and nothing else', () => {
    for (const level of THINKING_LEVELS) expect(thinkingLevelSchema.parse(level)).toBe(level);
    expect(thinkingLevelSchema.safeParse('medium').success).toBe(false);
    expect(thinkingLevelSchema.safeParse('').success).toBe(false);
  });
});
