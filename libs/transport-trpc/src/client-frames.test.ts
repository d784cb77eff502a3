import { describe, expect, it } from 'vitest';
import superjson from 'superjson';
import { operationText, readServerFrame, subscriptionStopText, untransformed } from './client-frames';
import type { ErrorShape } from './rpc-operation';

describe('client frames', () => {
  it('an operation is written as JSON.stringify would write it, the input left out when undefined', () => {
    const op = { type: 'mutation', path: 'probe.echo', input: { json: { a: [1] } }, persistent: false } as const;
    expect(operationText(3, op)).toBe(
      JSON.stringify({ id: 3, method: 'mutation', params: { path: op.path, input: op.input } }),
    );
    expect(operationText(4, { ...op, type: 'subscription', input: undefined })).toBe(
      '{"id":4,"method":"subscription","params":{"path":"probe.echo"}}',
    );
    expect(JSON.parse(subscriptionStopText(4))).toEqual({ id: 4, method: 'subscription.stop' });
  });

  it('reads the keep-alive, compact replies, the reconnect request and results by id', () => {
    expect(readServerFrame('PING')).toEqual({ kind: 'ping' });
    expect(readServerFrame('[5,0,"x"]')).toEqual({ kind: 'compactReply', reply: [5, 0, 'x'] });
    expect(readServerFrame('{"id":null,"method":"reconnect"}')).toEqual({ kind: 'reconnect' });
    expect(readServerFrame('{"id":2,"result":{"type":"data","data":{"json":1}}}')).toEqual({
      kind: 'result',
      id: 2,
      type: 'data',
      data: { json: 1 },
    });
    expect(readServerFrame('{"id":2,"result":{"type":"started"}}')).toMatchObject({ kind: 'result', type: 'started' });
  });

  it('a refusal of the connection (id null) is decoded; an operation failure is left as sent until its operation is found', () => {
    const error = superjson.serialize({
      code: -32001,
      message: 'no',
      data: { remote: { code: 'not_authorized', message: 'no' } },
    });
    expect(readServerFrame(JSON.stringify({ id: null, error }))).toEqual({
      kind: 'refused',
      error: { code: -32001, message: 'no', data: { remote: { code: 'not_authorized', message: 'no' } } },
    });
    const failed = readServerFrame(JSON.stringify({ id: 9, error }));
    expect(failed).toEqual({ kind: 'failed', id: 9, error });
    expect(untransformed(error as unknown as ErrorShape).data?.remote?.code).toBe('not_authorized');
  });

  it('ignores PONG, text that is not JSON, JSON that is not an object, and messages of no operation', () => {
    for (const text of ['PONG', '{nope', '42', 'null', '"text"', '{"id":"7","result":{}}', '{"result":{}}']) {
      expect(readServerFrame(text)).toEqual({ kind: 'ignored' });
    }
  });
});
