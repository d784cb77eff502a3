import { afterEach, describe, expect, it } from 'vitest';
import { RemoteError } from '@pi/remote';
import { RpcConnection } from './rpc-connection';
import { stubSocketFactory } from './testing/stub-socket';
import { TrpcChannel, shapeToRemoteError } from './trpc-channel';

type Frame = ReturnType<ReturnType<typeof stubSocketFactory>['latest']>['frames'] extends () => Array<infer F>
  ? F
  : never;
const inputOf = (frame: Frame | undefined) =>
  (frame?.params?.input as { json: Record<string, unknown> } | undefined)?.json;

describe('TrpcChannel', () => {
  let connection: RpcConnection | undefined;
  afterEach(() => connection?.close());

  function connected() {
    const stubs = stubSocketFactory();
    connection = new RpcConnection({
      socketFactory: stubs.factory,
      connectionParams: { token: 't' },
      reconnect: false,
    });
    stubs.latest().open();
    stubs.latest().acceptHello();
    return { channel: new TrpcChannel(connection), socket: stubs.latest() };
  }

  it('sends a service call as `<service>.<method>` with the arguments, a call id and the trace carrier', () => {
    const { channel, socket } = connected();
    void channel
      .call({ target: { service: 'probe' }, member: 'echo', args: [1], trace: { traceparent: 'tp' } }, undefined)
      .catch(() => undefined);
    const frame = socket.frames().at(-1);
    expect(frame?.params?.path).toBe('probe.echo');
    expect(inputOf(frame)).toEqual({ a: [1], c: '1', t: { traceparent: 'tp' } });
  });

  it('sends a reference call through `$rpc.invoke`', () => {
    const { channel, socket } = connected();
    void channel
      .call({ target: { ref: 'ref_x' }, member: 'wait', args: [], trace: {} }, undefined)
      .catch(() => undefined);
    const frame = socket.frames().at(-1);
    expect(frame?.params?.path).toBe('$rpc.invoke');
    expect(inputOf(frame)).toEqual({ r: 'ref_x', m: 'wait', a: [], c: '1', t: {} });
  });

  it('aborting a call rejects it as cancelled and tells the server to cancel exactly that call id', async () => {
    const { channel, socket } = connected();
    const controller = new AbortController();
    void channel
      .call({ target: { service: 'probe' }, member: 'echo', args: [0], trace: {} }, undefined)
      .catch(() => undefined);
    const call = channel.call(
      { target: { service: 'probe' }, member: 'block', args: ['x'], trace: {} },
      controller.signal,
    );
    controller.abort();
    const error = await call.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RemoteError);
    expect((error as RemoteError).code).toBe('cancelled');
    const cancel = socket.frames().find((frame) => frame.params?.path === '$rpc.cancel');
    expect(inputOf(cancel)).toEqual({ c: '2' });
  });

  it('trusts only an envelope the server formatted; anything else is internal', () => {
    const remote = { code: 'unknown_model', message: 'No model' };
    expect(shapeToRemoteError({ code: -32000, message: 'x', data: { remote } }).toEnvelope()).toEqual(remote);
    expect(
      shapeToRemoteError({ json: { code: -32000, message: 'x', data: { remote } } } as never).toEnvelope(),
    ).toEqual(remote);
    expect(shapeToRemoteError({ code: -32000, message: 'socket hang up' }).toEnvelope()).toEqual({
      code: 'internal',
      message: 'Unexpected transport error',
    });
    expect(shapeToRemoteError({ code: -32000, message: 'x', data: { remote: { code: 1 } } } as never).code).toBe(
      'internal',
    );
  });
});
