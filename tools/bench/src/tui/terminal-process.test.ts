import { describe, expect, it } from 'vitest';
import { runProgram, visibleText } from './terminal-process';

describe('visibleText', () => {
  it('drops colours, modes and cursor moves, and turns cursor-forward into the spaces it skips', () => {
    const footer =
      '\x1b[?2026h\x1b7\x1b[30;1H\x1b[32m● connected\x1b[2C\x1b[m\x1b[90m/tmp/project\x1b[2C\x1b[menter\x1b[1Csend\x1b8\x1b[?25h';
    expect(visibleText(footer)).toBe('● connected  /tmp/project  enter send');
  });

  it('leaves plain output alone', () => {
    expect(visibleText('pi-session s-1: listening on /tmp/s.sock\n')).toBe(
      'pi-session s-1: listening on /tmp/s.sock\n',
    );
  });
});

describe('runProgram', () => {
  it('refuses a program that does not exist with a message naming it, on pipes', async () => {
    const missing = '/nonexistent/pi-no-such-program';
    await expect(
      runProgram('pipe', missing, [], { cwd: process.cwd(), env: process.env, columns: 80, rows: 24 }),
    ).rejects.toThrow(`Cannot run ${missing}: spawn ${missing} ENOENT`);
  });
});
