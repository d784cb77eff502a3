import { describe, expect, it } from 'vitest';
import { COMMANDS } from './cli-options';
import { USAGE, usageOf } from './usage';

describe('pi usage', () => {
  it('lists every command, and each command has its own usage', () => {
    for (const command of COMMANDS) {
      expect(USAGE).toMatch(new RegExp(`^  ${command} `, 'm'));
      expect(usageOf(command)).toMatch(new RegExp(`^Usage: pi ${command} `));
    }
  });

  it('gives pi sessions the flags that reach the coordinator, not those that reach a session', () => {
    const sessions = usageOf('sessions');
    for (const word of ['list [--all]', 'create [--title T]', 'rm <id>', '--cwd DIR', '--data-dir DIR', '--json']) {
      expect(sessions).toContain(word);
    }
    expect(sessions).not.toContain('--socket');
    expect(usageOf('status')).toContain('coordinator');
  });
});
