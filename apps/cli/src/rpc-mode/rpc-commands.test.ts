import { describe, expect, it } from 'vitest';
import { readCommand } from './rpc-commands';

describe('readCommand', () => {
  it('reads each command, with or without an id', () => {
    expect(readCommand('{"type":"prompt","message":"hi","id":"1"}')._unsafeUnwrap()).toEqual({
      type: 'prompt',
      message: 'hi',
      id: '1',
    });
    expect(readCommand('{"type":"abort"}')._unsafeUnwrap()).toEqual({ type: 'abort' });
    expect(
      readCommand(
        '{"id":7,"type":"call","service":"models","method":"select","args":[{"provider":"p"}]}',
      )._unsafeUnwrap(),
    ).toMatchObject({ id: 7, service: 'models', args: [{ provider: 'p' }] });
  });

  it('refuses text that is not JSON as invalid_json, with no id to echo', () => {
    expect(readCommand('{"type":')._unsafeUnwrapErr()).toMatchObject({
      id: null,
      command: null,
      error: { code: 'invalid_json' },
    });
  });

  it('refuses what is no command as invalid_command, echoing the id and type it could read', () => {
    expect(readCommand('[1,2]')._unsafeUnwrapErr()).toMatchObject({ id: null, error: { code: 'invalid_command' } });
    const unknown = readCommand('{"id":"x","type":"launch"}')._unsafeUnwrapErr();
    expect(unknown).toMatchObject({ id: 'x', command: 'launch', error: { code: 'invalid_command' } });
    expect(unknown.error.message).toContain('prompt, steer, follow_up, abort, call');
    expect(readCommand('{"id":1,"type":"prompt"}')._unsafeUnwrapErr().error.message).toContain('at message');
    expect(readCommand('{"id":1,"type":"prompt","message":"hi","extra":1}')._unsafeUnwrapErr().id).toBe(1);
    expect(readCommand('{"id":{},"type":"describe"}')._unsafeUnwrapErr()).toMatchObject({ id: null });
  });
});
