import { describe, expect, it } from 'vitest';
import { effectiveThinkingLevel, nextThinkingLevel } from './thinking-level';

const reasoning = { provider: 'p', modelId: 'r', name: 'R', reasoning: true };
const plain = { provider: 'p', modelId: 'c', name: 'C', reasoning: false };

describe('thinking levels', () => {
  it('cycles off → low → high → off', () => {
    expect([nextThinkingLevel('off'), nextThinkingLevel('low'), nextThinkingLevel('high')]).toEqual([
      'low',
      'high',
      'off',
    ]);
  });

  it('runs a reasoning model at the preferred level and anything else at off', () => {
    expect(effectiveThinkingLevel(reasoning, 'low')).toBe('low');
    expect(effectiveThinkingLevel(plain, 'high')).toBe('off');
    expect(effectiveThinkingLevel(undefined, 'high')).toBe('off');
  });
});
