import { describe, expect, it } from 'vitest';
import { parseCliOptions } from '../cli-options';

const parse = (...argv: string[]) => parseCliOptions(argv, '/here');

describe('pi --mode rpc command lines', () => {
  it('take the directory, the data directory, --no-session and --allow-tools', () => {
    expect(parse('--mode', 'rpc')._unsafeUnwrap()).toMatchObject({
      command: 'rpc',
      rpc: { noSession: false, allowTools: false },
      connection: { cwd: '/here' },
    });
    expect(
      parse('--mode', 'rpc', '--cwd', '/p', '--data-dir', '/d', '--no-session', '--allow-tools')._unsafeUnwrap(),
    ).toMatchObject({
      command: 'rpc',
      rpc: { noSession: true, allowTools: true },
      connection: { cwd: '/p', dataDir: '/d' },
    });
  });

  it('refuse operands, a command, another address, --model, and rpc with -p', () => {
    expect(parse('--mode', 'rpc', 'hello')._unsafeUnwrapErr()).toContain('Unknown command "hello"');
    expect(parse('status', '--mode', 'rpc')._unsafeUnwrapErr()).toContain('does not go with pi status');
    expect(parse('--mode', 'rpc', '--session', 's-1')._unsafeUnwrapErr()).toContain('--session');
    expect(parse('--mode', 'rpc', '--model', 'offline/echo')._unsafeUnwrapErr()).toContain('models.select');
    expect(parse('-p', 'hi', '--mode', 'rpc')._unsafeUnwrapErr()).toContain('--mode is text or json');
    expect(parse('--mode', 'yaml')._unsafeUnwrapErr()).toContain('--mode goes with -p');
  });
});
