import { describe, expect, it } from 'vitest';
import { isLegalTransition, type SessionStatus } from './session-status';

const ALL: readonly SessionStatus[] = ['starting', 'active', 'idle', 'closed'];

describe('session status transitions', () => {
  it('allow exactly start, connect, presentations coming and going, adoption and closing', () => {
    const legal = ALL.flatMap((from) => ALL.filter((to) => isLegalTransition(from, to)).map((to) => `${from}→${to}`));
    expect(legal.sort()).toEqual(
      [
        'closed→starting',
        'closed→idle',
        'starting→idle',
        'starting→closed',
        'idle→active',
        'idle→closed',
        'active→idle',
        'active→closed',
      ].sort(),
    );
  });

  it('never stay put: an equal status is no transition', () => {
    expect(ALL.filter((status) => isLegalTransition(status, status))).toEqual([]);
  });
});
