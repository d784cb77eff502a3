import { describe, expect, it } from 'vitest';
import { PromptHistory } from './prompt-history';

describe('PromptHistory', () => {
  it('walks back through entries and forward to the kept draft', () => {
    const history = new PromptHistory();
    history.add('a');
    history.add('b');
    expect(history.previous('draft')).toBe('b');
    expect(history.browsing).toBe(true);
    expect(history.previous('b')).toBe('a');
    expect(history.previous('a')).toBeUndefined();
    expect(history.next()).toBe('b');
    expect(history.next()).toBe('draft');
    expect(history.next()).toBeUndefined();
    expect(history.browsing).toBe(false);
  });

  it('blank prompts and immediate repeats are not recorded', () => {
    const history = new PromptHistory();
    for (const entry of ['x', 'x', '  ', 'y', 'x']) history.add(entry);
    expect(history.list()).toEqual(['x', 'y', 'x']);
  });

  it('keeps the newest `limit` entries', () => {
    const history = new PromptHistory(2);
    history.load(['1', '2', '3']);
    expect(history.list()).toEqual(['2', '3']);
    history.add('4');
    expect(history.list()).toEqual(['3', '4']);
  });
});
