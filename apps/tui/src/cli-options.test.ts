import { describe, expect, it } from 'vitest';
import { parseCliOptions } from './cli-options';

describe('pi-tui flags', () => {
  it('attaches to the session of the current directory by default', () => {
    expect(parseCliOptions([], '/work/p')._unsafeUnwrap()).toMatchObject({
      cwd: '/work/p',
      start: false,
      sessionId: undefined,
      connection: undefined,
    });
  });

  it('takes one way to name the session', () => {
    expect(parseCliOptions(['--session', 's-1'], '/p')._unsafeUnwrap().sessionId).toBe('s-1');
    expect(parseCliOptions(['--connection', 'c.json'], '/p')._unsafeUnwrap().connection).toBe('c.json');
    expect(parseCliOptions(['--session', 's-1', '--socket', '/s'], '/p')._unsafeUnwrapErr()).toContain(
      'Give one of --session, --connection, --socket or --url',
    );
  });

  it('--dev runs /reload on plugin changes, and is off by default', () => {
    expect(parseCliOptions(['--dev'], '/p')._unsafeUnwrap().dev).toBe(true);
    expect(parseCliOptions([], '/p')._unsafeUnwrap().dev).toBe(false);
  });

  it('--start finds the session by directory only', () => {
    expect(parseCliOptions(['--start', '--cwd', '/q'], '/p')._unsafeUnwrap()).toMatchObject({ start: true, cwd: '/q' });
    expect(parseCliOptions(['--start', '--session', 's-1'], '/p')._unsafeUnwrapErr()).toContain(
      '--start finds the session by --cwd',
    );
  });

  it('refuses an unknown flag or a stray argument with a pointer to --help', () => {
    expect(parseCliOptions(['--nope'], '/p')._unsafeUnwrapErr()).toContain('(see --help)');
    expect(parseCliOptions(['extra'], '/p')._unsafeUnwrapErr()).toContain('(see --help)');
  });
});
