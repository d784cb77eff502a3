import { describe, expect, it } from 'vitest';
import { USAGE, parseCliOptions } from './cli-options';

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
    });
    expect(parse('--json', 'status')._unsafeUnwrap()).toMatchObject({ command: 'status', json: true });
    expect(
      parse('run', '--manifest', 'm.json', '--data-dir', '/d', '--config-dir', '/c')._unsafeUnwrap(),
    ).toMatchObject({ command: 'run', manifest: 'm.json', dataDir: '/d', configDir: '/c' });
    expect(parse('stop')._unsafeUnwrap()).toMatchObject({ command: 'stop' });
  });

  it('asks for help with --help or -h, with or without a command', () => {
    expect(parse('--help')._unsafeUnwrap()).toMatchObject({ help: true });
    expect(parse('stop', '-h')._unsafeUnwrap()).toMatchObject({ help: true, command: 'stop' });
  });

  it('refuses an unknown command or flag, an extra argument and a flag without its value, in one line', () => {
    expect(parse('restart')._unsafeUnwrapErr()).toBe(
      'Unknown command "restart": use start, run, stop or status (see --help)',
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
      '--help',
    ]) {
      expect(USAGE).toContain(word);
    }
  });
});
