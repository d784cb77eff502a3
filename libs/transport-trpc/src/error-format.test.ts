import { TRPCError } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { RemoteError } from '@pi/remote';
import { formatError } from './error-format';

const shape = { code: -32603, message: 'shape message' };
const endpoint = { hasService: (id: string) => id === 'probe' };

function format(error: TRPCError, path?: string) {
  return formatError({ shape, error, path, ctx: { endpoint } });
}

describe('formatError', () => {
  it('passes a RemoteError the service threw through unchanged, data included', () => {
    const cause = new RemoteError('unknown_model', 'No such model', { model: 'x' });
    const formatted = format(new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause }));
    expect(formatted.data).toEqual({
      remote: { code: 'unknown_model', message: 'No such model', data: { model: 'x' } },
    });
    expect(formatted.message).toBe('No such model');
  });

  it('turns any other error into internal with a generic message, keeping nothing of the original', () => {
    const cause = new Error('password=hunter2');
    const formatted = format(new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: 'password=hunter2', cause }));
    expect(formatted).toEqual({
      code: shape.code,
      message: 'Internal error',
      data: { remote: { code: 'internal', message: 'Internal error' } },
    });
    expect(JSON.stringify(formatted)).not.toContain('hunter2');
  });

  it.each([
    ['BAD_REQUEST', 'invalid_argument'],
    ['PARSE_ERROR', 'invalid_argument'],
    ['UNPROCESSABLE_CONTENT', 'invalid_argument'],
    ['UNSUPPORTED_MEDIA_TYPE', 'invalid_argument'],
    ['UNAUTHORIZED', 'not_authorized'],
    ['FORBIDDEN', 'not_authorized'],
    ['TIMEOUT', 'internal'],
    ['CLIENT_CLOSED_REQUEST', 'internal'],
  ] as const)("maps tRPC %s to %s without tRPC's message", (code, expected) => {
    const formatted = format(new TRPCError({ code, message: `detail for ${code}` }));
    expect(formatted.data.remote.code).toBe(expected);
    expect(formatted.data.remote.message).not.toContain('detail');
  });

  it('tells an unknown member of a provided service from an unknown service', () => {
    const notFound = new TRPCError({ code: 'NOT_FOUND' });
    expect(format(notFound, 'probe.vanish').data.remote).toEqual({
      code: 'unknown_member',
      message: 'Unknown member "vanish" of probe',
    });
    expect(format(notFound, '$rpc.vanish').data.remote.code).toBe('unknown_member');
    expect(format(notFound, 'ghost.haunt').data.remote).toEqual({
      code: 'unknown_service',
      message: 'Unknown service "ghost"',
    });
    expect(format(notFound, undefined).data.remote.code).toBe('unknown_service');
  });

  it('calls a service unknown when there is no connection to ask (a refused connection)', () => {
    const formatted = formatError({
      shape,
      error: new TRPCError({ code: 'NOT_FOUND' }),
      path: 'probe.echo',
      ctx: undefined,
    });
    expect(formatted.data.remote.code).toBe('unknown_service');
  });
});
