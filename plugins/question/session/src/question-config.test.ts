import { describe, expect, it } from 'vitest';
import { DEFAULT_INTERACTION_TIMEOUT_MS } from '@pi/remote';
import { parseQuestionConfig } from './question-config';
import { DEFAULT_UNATTENDED_TIMEOUT_MS } from '@pi/plugin-api';

const defaults = { timeoutMs: DEFAULT_INTERACTION_TIMEOUT_MS, unattendedTimeoutMs: DEFAULT_UNATTENDED_TIMEOUT_MS };

describe('question config', () => {
  it('defaults the timeout to the broker default of five minutes, the unattended wait to thirty seconds', () => {
    expect(parseQuestionConfig(null)).toEqual(defaults);
    expect(DEFAULT_INTERACTION_TIMEOUT_MS).toBe(300_000);
    expect(DEFAULT_UNATTENDED_TIMEOUT_MS).toBe(30_000);
    expect(parseQuestionConfig({})).toEqual(defaults);
  });

  it('takes a configured timeout and unattended wait', () => {
    expect(parseQuestionConfig({ timeoutMs: 50 })).toEqual({ ...defaults, timeoutMs: 50 });
    expect(parseQuestionConfig({ unattendedTimeoutMs: 20 })).toEqual({ ...defaults, unattendedTimeoutMs: 20 });
  });

  it.each([
    [{ timeoutMs: 0 }],
    [{ timeoutMs: -1 }],
    [{ timeoutMs: 1.5 }],
    [{ timeoutMs: 2 ** 31 }],
    [{ timeout: 50 }],
    [{ unattendedTimeoutMs: 0 }],
    [{ unattendedTimeoutMs: 2 ** 31 }],
    ['5m'],
  ])('refuses %j rather than silently using the default', (raw) => {
    expect(() => parseQuestionConfig(raw)).toThrow(/timeoutMs/);
  });
});
