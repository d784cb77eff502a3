import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { USAGE, parseCliOptions } from './cli-options';
import { locate } from './locations';

describe('pi-session flags', () => {
  it('defaults to a new session in the current directory', () => {
    expect(parseCliOptions([], '/work/project')._unsafeUnwrap()).toEqual({
      help: false,
      cwd: '/work/project',
      sessionId: undefined,
      manifest: undefined,
      socket: undefined,
      port: undefined,
      dataDir: undefined,
      configDir: undefined,
      upstreamFd: undefined,
      stopWithStdin: false,
      dev: false,
      coordinator: undefined,
      listen: undefined,
    });
  });

  it('reads every documented flag', () => {
    const args = [
      '--cwd',
      '/p',
      '--session',
      's-1',
      '--manifest',
      'm.json',
      '--socket',
      '/r/s.sock',
      '--port',
      '0',
      '--data-dir',
      '/d',
      '--config-dir',
      '/c',
      '--stop-with-stdin',
      '--dev',
    ];
    expect(parseCliOptions(args, '/')._unsafeUnwrap()).toMatchObject({
      cwd: '/p',
      sessionId: 's-1',
      manifest: 'm.json',
      socket: '/r/s.sock',
      port: 0,
      dataDir: '/d',
      configDir: '/c',
      stopWithStdin: true,
      dev: true,
    });
    for (const flag of args.filter((arg) => arg.startsWith('--'))) expect(USAGE).toContain(flag);
  });

  it.each(['1e3', ' 80', '0x50', '-1', '65536', ''])('refuses --port %j', (port) => {
    expect(parseCliOptions(['--port', port], '/')._unsafeUnwrapErr()).toContain('--port');
  });

  it.each(['../escape', 'a/b', '', 'x'.repeat(65)])('refuses a session id that is not a plain name: %j', (id) => {
    expect(parseCliOptions(['--session', id], '/')._unsafeUnwrapErr()).toContain('--session');
  });
});

describe('where a session keeps its files', () => {
  const options = parseCliOptions([], '/p')._unsafeUnwrap();

  it('follows the XDG base directories, with the socket in the runtime directory', () => {
    const where = locate(options, 's-1', {
      XDG_DATA_HOME: '/xd',
      XDG_CONFIG_HOME: '/xc',
      XDG_RUNTIME_DIR: '/run/user/1',
    });
    expect(where).toEqual({
      dataDir: '/xd/pi',
      configDir: '/xc/pi',
      sessionFile: '/xd/pi/sessions/s-1.jsonl',
      socketPath: '/run/user/1/pi/s-1.sock',
      connectionFile: '/xd/pi/sessions/s-1.connection.json',
    });
  });

  it('puts the socket under the data directory when there is no runtime directory', () => {
    const where = locate(parseCliOptions(['--data-dir', '/d'], '/p')._unsafeUnwrap(), 's-1', {});
    expect(where.socketPath).toBe('/d/run/s-1.sock');
  });
});

describe('--upstream-fd', () => {
  it('reads the descriptor a coordinator passes with the session it starts', () => {
    expect(parseCliOptions(['--session', 's-1', '--upstream-fd', '3'], '/')._unsafeUnwrap().upstreamFd).toBe(3);
  });

  it('refuses a descriptor that is not a number from 3, and one without --session', () => {
    for (const fd of ['0', '2', '-1', 'x', '3.5', '10000']) {
      expect(parseCliOptions(['--session', 's-1', '--upstream-fd', fd], '/')._unsafeUnwrapErr(), fd).toMatch(
        /upstream-fd/,
      );
    }
    expect(parseCliOptions(['--upstream-fd', '3'], '/')._unsafeUnwrapErr()).toMatch(/needs --session/);
  });
});

describe('--coordinator and --listen (a session on another host)', () => {
  it('takes one URL per replica with the credential file and a CA, and a TLS listener with its files', () => {
    const options = parseCliOptions(
      [
        '--coordinator',
        'wss://a.example:7443/',
        '--coordinator',
        'wss://b.example:7443/',
        '--credential-file',
        'cred.json',
        '--tls-ca',
        '/etc/pi/ca.pem',
        '--listen',
        '0.0.0.0:7444',
        '--tls-cert',
        '/etc/pi/cert.pem',
        '--tls-key',
        '/etc/pi/key.pem',
      ],
      '/',
    )._unsafeUnwrap();
    expect(options.coordinator).toEqual({
      urls: ['wss://a.example:7443/', 'wss://b.example:7443/'],
      credentialFile: resolve('cred.json'),
      caFile: '/etc/pi/ca.pem',
    });
    expect(options.listen).toEqual({
      host: '0.0.0.0',
      port: 7444,
      certFile: '/etc/pi/cert.pem',
      keyFile: '/etc/pi/key.pem',
    });
    for (const flag of ['--coordinator', '--credential-file', '--tls-ca', '--listen', '--tls-cert', '--tls-key'])
      expect(USAGE).toContain(flag);
  });

  it('refuses a URL that is not ws: or wss:, a coordinator without a credential, and half a TLS listener', () => {
    const parse = (...argv: string[]) => parseCliOptions(argv, '/')._unsafeUnwrapErr();
    expect(parse('--coordinator', 'https://a/', '--credential-file', 'c')).toBe(
      '--coordinator takes a ws:// or wss:// URL, not https: "https://a/"',
    );
    expect(parse('--coordinator', 'wss://a/')).toBe(
      '--coordinator needs --credential-file FILE: the credential `pi-coordinator enroll --out` wrote',
    );
    expect(parse('--tls-ca', 'ca.pem')).toBe('--credential-file and --tls-ca go with --coordinator URL (see --help)');
    expect(parse('--coordinator', 'wss://a/', '--credential-file', 'c', '--session', 's-1', '--upstream-fd', '3')).toBe(
      '--coordinator and --upstream-fd are two ways to name the upstream: give one',
    );
    expect(parse('--listen', '0.0.0.0:7444')).toBe(
      '--listen, --tls-cert and --tls-key go together: a TCP listener is always TLS (see --help)',
    );
    expect(parse('--listen', 'nowhere', '--tls-cert', 'c', '--tls-key', 'k')).toBe(
      '--listen takes HOST:PORT, such as 0.0.0.0:7444: not "nowhere"',
    );
  });
});
