import { describe, expect, it } from 'vitest';
import { DEFAULT_INTERACTION_TIMEOUT_MS } from '@pi/remote';
import { parseQuestionConfig } from './question-config';

describe('question config', () => {
  it('defaults the timeout to the broker default of five minutes', () => {
    expect(parseQuestionConfig(null)).toEqual({ timeoutMs: DEFAULT_INTERACTION_TIMEOUT_MS });
    expect(DEFAULT_INTERACTION_TIMEOUT_MS).toBe(300_000);
    expect(parseQuestionConfig({})).toEqual({ timeoutMs: DEFAULT_INTERACTION_TIMEOUT_MS });
  });

  it('takes a configured timeout', () => {
    expect(parseQuestionConfig({ timeoutMs: 50 })).toEqual({ timeoutMs: 50 });
  });

  it.each([
    [{ timeoutMs: 0 }],
    [{ timeoutMs: -1 }],
    [{ timeoutMs: 1.5 }],
    [{ timeoutMs: 2 ** 31 }],
    [{ timeout: 50 }],
    ['5m'],
  ])('refuses %j rather than silently using the default', (raw) => {
    expect(() => parseQuestionConfig(raw)).toThrow(/timeoutMs/);
  });
});
