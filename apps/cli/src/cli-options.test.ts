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

  it('takes pi sessions with an action (list by default), its operand and its own flags', () => {
    const list = { action: 'list', title: undefined, all: false };
    expect(parse('sessions')._unsafeUnwrap()).toMatchObject({ command: 'sessions', operands: [], sessions: list });
    expect(parse('sessions', 'list', '--all', '--json')._unsafeUnwrap()).toMatchObject({
      json: true,
      sessions: { action: 'list', all: true },
    });
    expect(parse('sessions', 'create', '--title', 'fix it', '--cwd', '/p')._unsafeUnwrap()).toMatchObject({
      operands: [],
      connection: { cwd: '/p' },
      sessions: { action: 'create', title: 'fix it', all: false },
    });
    expect(parse('sessions', 'rm', 's-1')._unsafeUnwrap()).toMatchObject({
      operands: ['s-1'],
      sessions: { action: 'rm' },
    });
    expect(parse('status')._unsafeUnwrap().sessions).toBeUndefined();
  });

  it('asks for the sessions help with --help on any action, or help sessions', () => {
    expect(parse('help', 'sessions')._unsafeUnwrap()).toMatchObject({ command: 'sessions', help: true });
    expect(parse('sessions', 'rm', '--help')._unsafeUnwrap()).toMatchObject({ command: 'sessions', help: true });
    expect(parse('sessions', 'nope', '-h')._unsafeUnwrap()).toMatchObject({ command: 'sessions', help: true });
  });

  it('refuses an unknown action, a missing or extra operand, and flags that go with something else', () => {
    expect(parse('sessions', 'nope')._unsafeUnwrapErr()).toBe(
      'Unknown sessions command "nope": use list, create, rm or stop (see pi sessions --help)',
    );
    expect(parse('sessions', 'rm')._unsafeUnwrapErr()).toBe(
      'Usage: pi sessions rm <id> [--json] (see pi sessions --help)',
    );
    expect(parse('sessions', 'rm', 'a', 'b')._unsafeUnwrapErr()).toMatch(/^Usage: pi sessions rm <id>/);
    expect(parse('sessions', 'list', 'x')._unsafeUnwrapErr()).toMatch(/^Usage: pi sessions list/);
    expect(parse('sessions', 'create', 'x')._unsafeUnwrapErr()).toMatch(/^Usage: pi sessions create/);
    expect(parse('sessions', 'list', '--title', 't')._unsafeUnwrapErr()).toBe('--title goes with pi sessions create');
    expect(parse('sessions', 'rm', 's-1', '--all')._unsafeUnwrapErr()).toBe('--all goes with pi sessions list');
    expect(parse('sessions', '--all', '--cwd', '/p')._unsafeUnwrapErr()).toBe('Give --cwd or --all, not both');
    expect(parse('sessions', '--session', 's-1')._unsafeUnwrapErr()).toMatch(/talks to the coordinator/);
    expect(parse('sessions', '--socket', '/s')._unsafeUnwrapErr()).toMatch(/talks to the coordinator/);
    expect(parse('sessions', 'create', '--title')._unsafeUnwrapErr()).toMatch(/--title/);
    expect(parse('status', '--all')._unsafeUnwrapErr()).toBe('--all goes with pi sessions list');
    expect(parse('call', 'a.b', '--title', 't')._unsafeUnwrapErr()).toBe('--title goes with pi sessions create');
  });
});

describe('pi -p command lines', () => {
  it('take the prompt, the flags that go with it, and piped text after the prompt', () => {
    expect(
      parseCliOptions(
        ['-p', 'review this', '--model', 'anthropic/claude:low', '--mode', 'json'],
        '/here',
        'diff --git\n',
      )._unsafeUnwrap(),
    ).toMatchObject({
      command: 'print',
      print: {
        prompt: 'review this\n\ndiff --git',
        noSession: false,
        model: 'anthropic/claude:low',
        mode: 'json',
        allowTools: false,
      },
    });
    expect(parse('--print=hi', '--no-session', '--allow-tools')._unsafeUnwrap().print).toMatchObject({
      prompt: 'hi',
      noSession: true,
      allowTools: true,
    });
  });

  it.each([
    [['-p', ''], '-p needs a prompt'],
    [['-p', 'a', 'b'], '-p takes the prompt as its value'],
    [['status', '-p', 'a'], 'does not go with pi status'],
    [['-p', 'a', '--session', 's-1'], '--session, --socket and --url do not apply'],
    [['-p', 'a', '--mode', 'yaml'], '--mode is text or json'],
    [['status', '--no-session'], '--no-session goes with -p'],
    [['call', 's.m', '--model', 'x/y'], '--model goes with -p'],
  ])('refuse %j with one line', (argv, message) => {
    expect(parse(...argv)._unsafeUnwrapErr()).toContain(message);
  });
});
