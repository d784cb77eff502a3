import { describe, expect, it } from 'vitest';
import { parseCliOptions } from './cli-options';

const parse = (...argv: string[]) => parseCliOptions(argv, '/here');

describe('pi command lines', () => {
  it('takes the command, its operands and flags in any order', () => {
    expect(parse('call', 'models.select', '{"a":1}', '--json', '--session', 's-1')._unsafeUnwrap()).toEqual({
      command: 'call',
      help: false,
      json: true,
      operands: ['models.select', '{"a":1}'],
      connection: { cwd: '/here', session: 's-1', socket: undefined, url: undefined, dataDir: undefined },
    });
    expect(parse('--cwd', '/p', 'status')._unsafeUnwrap()).toMatchObject({
      command: 'status',
      connection: { cwd: '/p' },
    });
  });

  it('takes everything after -- as an operand (a negative number argument)', () => {
    expect(parse('call', 'probe.echo', '--', '-1', '--json')._unsafeUnwrap()).toMatchObject({
      operands: ['probe.echo', '-1', '--json'],
      json: false,
    });
  });

  it('asks for help with --help, -h or help <command>, on every command', () => {
    expect(parse()._unsafeUnwrap()).toMatchObject({ command: undefined, help: false });
    expect(parse('--help')._unsafeUnwrap()).toMatchObject({ command: undefined, help: true });
    expect(parse('help', 'watch')._unsafeUnwrap()).toMatchObject({ command: 'watch', help: true });
    expect(parse('watch', '-h')._unsafeUnwrap()).toMatchObject({ command: 'watch', help: true });
  });

  it('refuses unknown commands and flags, wrong operand counts and two ways to connect', () => {
    expect(parse('serve')._unsafeUnwrapErr()).toBe('Unknown command "serve" (see pi --help)');
    expect(parse('status', '--nope')._unsafeUnwrapErr()).toMatch(/--nope/);
    expect(parse('watch')._unsafeUnwrapErr()).toBe('Usage: pi watch <service> (see pi watch --help)');
    expect(parse('call')._unsafeUnwrapErr()).toMatch(/^Usage: pi call/);
    expect(parse('status', 'extra')._unsafeUnwrapErr()).toMatch(/^Usage: pi status/);
    expect(parse('status', '--socket', '/s', '--url', 'ws://x')._unsafeUnwrapErr()).toMatch(/not both/);
    expect(parse('status', '--socket', '/s', '--session', 's')._unsafeUnwrapErr()).toMatch(/--session/);
  });
});
