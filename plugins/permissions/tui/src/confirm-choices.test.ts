import { describe, expect, it } from 'vitest';
import { confirmChoices, decisionOf } from './confirm-choices';

describe('confirm choices', () => {
  it('number allow once, allow for this session and deny the same for every tool', () => {
    expect(confirmChoices('command')).toEqual([
      '1. Allow once',
      '2. Allow for this session (this exact command)',
      '3. Deny',
    ]);
    expect(confirmChoices('tool')).toEqual([
      '1. Allow once',
      '2. Allow for this session (this tool, any arguments)',
      '3. Deny',
    ]);
  });

  it.each(['command', 'tool'] as const)(
    '(%s) hold no digit but their own number, so a number picks one row',
    (scope) => {
      for (const [index, row] of confirmChoices(scope).entries()) {
        expect(row.match(/\d/g)).toEqual([String(index + 1)]);
      }
    },
  );

  it('reads each row as its decision, and anything else as a deny', () => {
    const [once, session, deny] = confirmChoices('command');
    expect(decisionOf('command', once)).toBe('allow_once');
    expect(decisionOf('command', session)).toBe('allow_session');
    expect(decisionOf('command', deny)).toBe('deny');
    expect(decisionOf('command', undefined)).toBe('deny');
    expect(decisionOf('command', '2. Allow for this session (this tool, any arguments)')).toBe('deny');
  });
});
