import { describe, expect, it } from 'vitest';
import { SgrState } from './sgr-state';

function stateAfter(...escapes: string[]): SgrState {
  const state = new SgrState();
  for (const escape of escapes) state.apply(escape);
  return state;
}

describe('SgrState', () => {
  it('re-opens the attributes in force as one sequence', () => {
    expect(stateAfter('\x1b[1m', '\x1b[31m').open()).toBe('\x1b[1;31m');
  });

  it('a reset, in any spelling, clears everything', () => {
    for (const reset of ['\x1b[0m', '\x1b[m', '\x1b[00m']) {
      const state = stateAfter('\x1b[1;4;38;2;1;2;3m', reset);
      expect(state.active).toBe(false);
      expect(state.open()).toBe('');
      expect(state.close()).toBe('');
    }
  });

  it('keeps one value per slot however many colours went by', () => {
    expect(stateAfter('\x1b[31m', '\x1b[32m', '\x1b[38;5;99m', '\x1b[44m').open()).toBe('\x1b[38;5;99;44m');
  });

  it('specific resets remove only their attribute', () => {
    expect(stateAfter('\x1b[1;3;31m', '\x1b[22m', '\x1b[39m').open()).toBe('\x1b[3m');
  });

  it('ignores sequences that are not SGR', () => {
    expect(stateAfter('\x1b[2J', '\x1b]0;t\x07').active).toBe(false);
  });

  it('closes with a full reset when something is open', () => {
    expect(stateAfter('\x1b[4m').close()).toBe('\x1b[0m');
  });
});
