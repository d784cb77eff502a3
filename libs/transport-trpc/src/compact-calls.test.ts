import { describe, expect, it } from 'vitest';
import { RemoteError } from '@pi/remote';
import {
  CompactCall,
  compactCallText,
  compactErrorText,
  compactOutcome,
  compactReplyText,
  isCompactCall,
  readCompactCall,
} from './compact-calls';
import { speaksCompactCalls } from './hello';

const TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

describe('compact calls', () => {
  it('a call is [id, path, args, callId], with the trace carrier fifth only when it has fields', () => {
    expect(compactCallText(7, 'probe.echo', [{ a: 1 }, 'x'], '3', {})).toBe('[7,"probe.echo",[{"a":1},"x"],"3"]');
    expect(compactCallText(8, 'probe.echo', [], '4', { traceparent: TRACEPARENT })).toBe(
      `[8,"probe.echo",[],"4",{"traceparent":"${TRACEPARENT}"}]`,
    );
  });

  it('the host reads a call into the input its tRPC form carries, an absent carrier as an empty one', () => {
    const read = readCompactCall(JSON.parse(compactCallText(7, 'probe.echo', [1], '3', {})) as unknown[]);
    expect(read).toEqual(new CompactCall(7, 'probe.echo', { a: [1], c: '3', t: {} }));
    const traced = readCompactCall([8, 'p.m', [], '4', { traceparent: TRACEPARENT }]);
    expect(traced).toMatchObject({ input: { t: { traceparent: TRACEPARENT } } });
  });

  it('a malformed call with an integer id is refused under that id; without one it has no answer', () => {
    for (const frame of [[1], [1, 'p.m', []], [1, 2, [], 'c'], [1, 'p.m', [], 'c', {}, 'extra']])
      expect(readCompactCall(frame)).toEqual({
        refusal: '[1,2,{"code":"invalid_argument","message":"Malformed request"}]',
      });
    for (const frame of [
      [1.5, 'p.m', [], 'c'],
      [Number.MAX_SAFE_INTEGER + 1, 'p.m', [], 'c'],
    ])
      expect(readCompactCall(frame)).toBeUndefined();
  });

  it('only an array that starts with a number is a compact call: a tRPC batch is an array of objects', () => {
    expect(isCompactCall([1, 'p.m', [], 'c'])).toBe(true);
    expect(isCompactCall([{ id: 1, method: 'mutation' }])).toBe(false);
    expect(isCompactCall({ id: 1 })).toBe(false);
    expect(isCompactCall([])).toBe(false);
  });

  it('each reply reads back as the response or the error the host sent', () => {
    const outcome = (text: string) => compactOutcome(JSON.parse(text) as unknown[]);
    expect(compactReplyText(3, {})).toBe('[3,0]');
    expect(outcome(compactReplyText(3, {}))).toEqual({});
    expect(outcome(compactReplyText(3, { value: null }))).toEqual({ value: null });
    expect(outcome(compactReplyText(3, { value: { n: [1, 'x'] } }))).toEqual({ value: { n: [1, 'x'] } });
    expect(compactReplyText(3, { ref: 'ref_1' })).toBe('[3,1,"ref_1"]');
    expect(outcome(compactReplyText(3, { ref: 'ref_1' }))).toEqual({ ref: 'ref_1' });
    const error = outcome(compactErrorText(3, { code: 'busy', message: 'later', data: { retryInMs: 5 } }));
    expect(error).toBeInstanceOf(RemoteError);
    expect(error).toMatchObject({ code: 'busy', message: 'later', data: { retryInMs: 5 } });
  });

  it('a reply of no known kind is a broken host: internal, never a result', () => {
    for (const reply of [
      [3, 9, 1],
      [3, 0, 1, 2],
      [3, 1],
      [3, 1, 5],
      [3, 2, 'not an envelope'],
      [3, 2],
    ])
      expect(compactOutcome(reply)).toMatchObject({ code: 'internal' });
  });

  it('hosts of protocol 1.2 and later read compact calls, older ones do not', () => {
    expect(['1.0', '1.1', '0.9'].map(speaksCompactCalls)).toEqual([false, false, false]);
    expect(['1.2', '1.10', '2.0'].map(speaksCompactCalls)).toEqual([true, true, true]);
  });
});
