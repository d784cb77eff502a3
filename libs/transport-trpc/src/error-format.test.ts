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
    expect(formatted.data.remote).toEqual({ code: 'unknown_model', message: 'No such model', data: { model: 'x' } });
    expect(formatted.message).toBe('No such model');
  });

  it('turns any other error into internal with a generic message, keeping nothing of the original', () => {
    const cause = new Error('password=hunter2');
    const formatted = format(new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: 'password=hunter2', cause }));
    expect(formatted).toEqual({
      code: -32603,
      message: 'Internal error',
      data: {
        code: 'INTERNAL_SERVER_ERROR',
        httpStatus: 500,
        remote: { code: 'internal', message: 'Internal error' },
      },
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

  it.each([
    ['invalid_argument', 'BAD_REQUEST', -32600, 400],
    ['not_authorized', 'FORBIDDEN', -32003, 403],
    ['unknown_service', 'NOT_FOUND', -32004, 404],
    ['unknown_member', 'NOT_FOUND', -32004, 404],
    ['stale_reference', 'NOT_FOUND', -32004, 404],
    ['timeout', 'TIMEOUT', -32008, 408],
    ['cancelled', 'CLIENT_CLOSED_REQUEST', -32099, 499],
    ['limit_exceeded', 'TOO_MANY_REQUESTS', -32029, 429],
    ['no_handler', 'PRECONDITION_FAILED', -32012, 412],
    ['unavailable', 'SERVICE_UNAVAILABLE', -32603, 503],
    ['disconnected', 'SERVICE_UNAVAILABLE', -32603, 503],
    ['invalid_result', 'INTERNAL_SERVER_ERROR', -32603, 500],
    ['internal', 'INTERNAL_SERVER_ERROR', -32603, 500],
  ] as const)("gives pi's %s tRPC's %s (%i, HTTP %i), pi's code kept in data.remote", (piCode, trpc, number, http) => {
    const formatted = format(new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: new RemoteError(piCode, 'why') }));
    expect(formatted).toEqual({
      code: number,
      message: 'why',
      data: { code: trpc, httpStatus: http, remote: { code: piCode, message: 'why' } },
    });
  });

  it.each([
    ['unknown_session', 'NOT_FOUND'],
    ['invalid_message', 'BAD_REQUEST'],
    ['busy', 'CONFLICT'],
    ['session_running', 'CONFLICT'],
    ['file_exists', 'CONFLICT'],
    ['queue_item_consumed', 'CONFLICT'],
    ['deadline_exceeded', 'TIMEOUT'],
    ['start_timeout', 'TIMEOUT'],
    ['no_model', 'UNPROCESSABLE_CONTENT'],
    ['not_writable', 'UNPROCESSABLE_CONTENT'],
  ] as const)("gives a service's own code %s tRPC's %s by its form", (serviceCode, trpc) => {
    const formatted = format(
      new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: new RemoteError(serviceCode, 'x') }),
    );
    expect(formatted.data.code).toBe(trpc);
    expect(formatted.data.remote.code).toBe(serviceCode);
  });

  it('is UNAUTHORIZED, not FORBIDDEN, on a connection that was never authenticated', () => {
    const refused = formatError({
      shape,
      error: new TRPCError({ code: 'UNAUTHORIZED' }),
      path: undefined,
      ctx: undefined,
    });
    expect(refused).toMatchObject({ code: -32001, data: { code: 'UNAUTHORIZED', httpStatus: 401 } });
    expect(refused.data.remote).toEqual({ code: 'not_authorized', message: 'Not authorized' });
    expect(format(new TRPCError({ code: 'UNAUTHORIZED' })).data.code).toBe('FORBIDDEN');
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
