import { describe, expect, it } from 'vitest';
import { TUI_SCENARIOS, parseTuiBenchOptions } from './tui-options';

describe('parseTuiBenchOptions', () => {
  it('defaults to five rounds of every scenario, on a pty when one loads', () => {
    expect(parseTuiBenchOptions([])).toEqual({ rounds: 5, scenarios: TUI_SCENARIOS, terminal: 'auto' });
  });

  it('reads every option', () => {
    expect(parseTuiBenchOptions(['--rounds=2', '--only=keypress,cold', '--pipe'])).toEqual({
      rounds: 2,
      scenarios: ['keypress', 'cold'],
      terminal: 'pipe',
    });
  });

  it('rejects what it does not know', () => {
    expect(() => parseTuiBenchOptions(['--rounds=0'])).toThrow(/Unknown option/);
    expect(() => parseTuiBenchOptions(['--only=scroll'])).toThrow(/Unknown scenario/);
    expect(() => parseTuiBenchOptions(['--pipe=yes'])).toThrow(/Unknown option/);
  });
});
