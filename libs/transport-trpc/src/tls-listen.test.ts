import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTlsListenFlags } from './tls-listen';

describe('the --listen, --tls-cert and --tls-key flags', () => {
  it('are all absent for a program that serves no TCP listener', () => {
    expect(parseTlsListenFlags({}, '0.0.0.0:7443')._unsafeUnwrap()).toBeUndefined();
  });

  it('give the address and both files, resolved against the working directory', () => {
    expect(
      parseTlsListenFlags({ listen: '[::]:7443', certFile: '/etc/pi/c.pem', keyFile: 'k.pem' }, 'x')._unsafeUnwrap(),
    ).toEqual({ host: '[::]', port: 7443, certFile: '/etc/pi/c.pem', keyFile: resolve('k.pem') });
  });

  it('refuse a listener without both TLS files, or TLS files without a listener', () => {
    for (const flags of [{ listen: 'h:1' }, { listen: 'h:1', certFile: 'c' }, { certFile: 'c', keyFile: 'k' }])
      expect(parseTlsListenFlags(flags, 'x')._unsafeUnwrapErr()).toBe(
        '--listen, --tls-cert and --tls-key go together: a TCP listener is always TLS (see --help)',
      );
  });

  it('refuse an address that is not HOST:PORT, suggesting the program’s own example', () => {
    for (const listen of ['7443', 'host:', 'host:99999', ':7443x'])
      expect(parseTlsListenFlags({ listen, certFile: 'c', keyFile: 'k' }, '0.0.0.0:7444')._unsafeUnwrapErr()).toBe(
        `--listen takes HOST:PORT, such as 0.0.0.0:7444: not "${listen}"`,
      );
  });
});
