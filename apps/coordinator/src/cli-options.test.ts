import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_IDLE_STOP_MS, USAGE, parseCliOptions } from './cli-options';

const parse = (...argv: string[]) => parseCliOptions(argv);

describe('pi-coordinator command lines', () => {
  it('starts by default, and takes each command with its flags in any order', () => {
    expect(parse()._unsafeUnwrap()).toEqual({
      help: false,
      command: 'start',
      manifest: undefined,
      dataDir: undefined,
      configDir: undefined,
      json: false,
      idleStopMs: DEFAULT_IDLE_STOP_MS,
      idleStop: undefined,
      database: undefined,
      listen: undefined,
      enroll: undefined,
      replicas: [],
      tlsCa: undefined,
    });
    expect(parse('--json', 'status')._unsafeUnwrap()).toMatchObject({ command: 'status', json: true });
    expect(
      parse('run', '--manifest', 'm.json', '--data-dir', '/d', '--config-dir', '/c')._unsafeUnwrap(),
    ).toMatchObject({ command: 'run', manifest: 'm.json', dataDir: '/d', configDir: '/c' });
    expect(parse('stop')._unsafeUnwrap()).toMatchObject({ command: 'stop' });
  });

  it('takes how long a session may sit idle before it is stopped: a time with its unit, or 0 / never', () => {
    expect(DEFAULT_IDLE_STOP_MS).toBe(10 * 60_000);
    const idle = (value: string) => parse('run', '--idle-stop', value)._unsafeUnwrap().idleStopMs;
    expect([idle('10m'), idle('90s'), idle('1h'), idle('250ms'), idle('0'), idle('never')]).toEqual([
      600_000, 90_000, 3_600_000, 250, 0, 0,
    ]);
    expect(parse('start', '--idle-stop', '5m')._unsafeUnwrap()).toMatchObject({ idleStop: '5m', idleStopMs: 300_000 });
    for (const bad of ['10', '-1m', '1.5m', 'soon', '10 m', '30d', '999999999h']) {
      expect(parse('run', `--idle-stop=${bad}`)._unsafeUnwrapErr(), bad).toBe(
        `--idle-stop takes a time such as 10m, 90s, 1h or 500ms, or 0 (never): not "${bad}" (see --help)`,
      );
    }
  });

  it('takes a PostgreSQL URL for the session records with --database, and none by default', () => {
    expect(parse('run', '--database', 'postgres://pi@db:5432/pi')._unsafeUnwrap()).toMatchObject({
      command: 'run',
      database: 'postgres://pi@db:5432/pi',
    });
    expect(parse('run', '--database')._unsafeUnwrapErr()).toMatch(/--database.*\(see --help\)$/);
  });

  it('takes a TLS listener as --listen HOST:PORT with both PEM files (made absolute), never one without the others', () => {
    expect(
      parse('run', '--listen', '0.0.0.0:7443', '--tls-cert', '/etc/pi/c.pem', '--tls-key', 'k.pem')._unsafeUnwrap()
        .listen,
    ).toEqual({ host: '0.0.0.0', port: 7443, certFile: '/etc/pi/c.pem', keyFile: resolve('k.pem') });
    for (const flags of [
      ['--listen', ':1'],
      ['--tls-cert', 'c'],
      ['--listen', 'h:1', '--tls-key', 'k'],
    ])
      expect(parse('run', ...flags)._unsafeUnwrapErr()).toMatch(/^--listen, --tls-cert and --tls-key go together/);
    for (const bad of ['7443', 'host:', 'host:99999'])
      expect(parse('run', '--listen', bad, '--tls-cert', 'c', '--tls-key', 'k')._unsafeUnwrapErr()).toBe(
        `--listen takes HOST:PORT, such as 0.0.0.0:7443: not "${bad}"`,
      );
  });

  it('asks for help with --help or -h, with or without a command', () => {
    expect(parse('--help')._unsafeUnwrap()).toMatchObject({ help: true });
    expect(parse('stop', '-h')._unsafeUnwrap()).toMatchObject({ help: true, command: 'stop' });
  });

  it('refuses an unknown command or flag, an extra argument and a flag without its value, in one line', () => {
    expect(parse('restart')._unsafeUnwrapErr()).toBe(
      'Unknown command "restart": use start, run, stop, status or enroll (see --help)',
    );
    expect(parse('start', 'now')._unsafeUnwrapErr()).toBe('Unexpected argument "now" (see --help)');
    expect(parse('--nope')._unsafeUnwrapErr()).toMatch(/^Unknown option '--nope'.*\(see --help\)$/);
    expect(parse('run', '--data-dir')._unsafeUnwrapErr()).toMatch(/--data-dir.*\(see --help\)$/);
    for (const args of [['restart'], ['--nope'], ['run', '--data-dir']]) {
      expect(parse(...args)._unsafeUnwrapErr()).not.toContain('\n');
    }
  });

  it('documents every command and flag it parses', () => {
    for (const word of [
      'start',
      'run',
      'stop',
      'status',
      '--manifest',
      '--data-dir',
      '--config-dir',
      '--json',
      '--idle-stop',
      '--database',
      'PI_DATABASE_URL',
      '--listen',
      '--tls-cert',
      '--tls-key',
      '--help',
    ]) {
      expect(USAGE).toContain(word);
    }
  });

  it('enrolls a session to run elsewhere: an absolute --cwd and an --out file, optionally its id and title', () => {
    expect(parse('enroll', '--cwd', '/srv/p', '--out', 'cred.json')._unsafeUnwrap().enroll).toEqual({
      cwd: '/srv/p',
      sessionId: undefined,
      title: undefined,
      out: resolve('cred.json'),
    });
    expect(
      parse('enroll', '--cwd', '/srv/p', '--out', '/c', '--session', 's-1', '--title', 'T')._unsafeUnwrap().enroll,
    ).toMatchObject({ sessionId: 's-1', title: 'T' });
    expect(parse('enroll', '--cwd', '/srv/p')._unsafeUnwrapErr()).toBe(
      'enroll needs --cwd DIR (the project directory where the session runs) and --out FILE (see --help)',
    );
    expect(parse('enroll', '--cwd', 'srv/p', '--out', '/c')._unsafeUnwrapErr()).toBe(
      'enroll --cwd names the directory as the session\'s host does, from /: not "srv/p"',
    );
    expect(parse('enroll', '--cwd', '/p', '--out', '/c', '--session', '../x')._unsafeUnwrapErr()).toMatch(
      /^--session must/,
    );
    expect(parse('run', '--cwd', '/srv/p')._unsafeUnwrapErr()).toBe(
      '--cwd, --session, --title and --out belong to enroll (see --help)',
    );
  });

  it('takes the other replicas by wss:// URL with the CA they chain to, and refuses anything else', () => {
    expect(
      parse('run', '--replica', 'wss://b:7443/', '--replica', 'wss://c:7443/', '--tls-ca', 'ca.pem')._unsafeUnwrap(),
    ).toMatchObject({ replicas: ['wss://b:7443/', 'wss://c:7443/'], tlsCa: resolve('ca.pem') });
    expect(parse('run', '--replica', 'b:7443')._unsafeUnwrapErr()).toBe(
      '--replica takes a ws:// or wss:// URL, not b: "b:7443"',
    );
  });

  it('takes --tls-ca alone: the CA of the sessions elsewhere its gateway relays presentations to', () => {
    expect(parse('run', '--tls-ca', 'ca.pem')._unsafeUnwrap()).toMatchObject({
      replicas: [],
      tlsCa: resolve('ca.pem'),
    });
  });
});
