import { resolve } from 'node:path';
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

  it('attaches by a ws:// or wss:// URL, trusting a private CA with --tls-ca, and says what is wrong otherwise', () => {
    expect(parseCliOptions(['--url', 'wss://host:7444/', '--tls-ca', 'ca.pem'], '/p')._unsafeUnwrap()).toMatchObject({
      url: 'wss://host:7444/',
      tlsCa: resolve('ca.pem'),
    });
    expect(parseCliOptions(['--url', 'host:7444'], '/p')._unsafeUnwrapErr()).toBe(
      '--url takes a ws:// or wss:// URL, not host: "host:7444"',
    );
    expect(parseCliOptions(['--url', 'ws://host:7444/', '--tls-ca', 'ca.pem'], '/p')._unsafeUnwrapErr()).toBe(
      '--tls-ca goes with a wss:// --url (see --help)',
    );
  });
});
