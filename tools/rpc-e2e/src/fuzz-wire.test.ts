import { describe, expect, it } from 'vitest';
import { serverFrameViolations } from './fuzz-wire';

describe('the scan of what the server sent back to a fuzzer', () => {
  const request = (id: unknown, path: string) => JSON.stringify({ id, method: 'mutation', params: { path, input: 0 } });

  it('does not blame the server for the id a request chose, echoed in its reply (found by seed 1047371426)', () => {
    const sent = [`[${request('=>', '')},${request(0, 'probe.echo')}]`];
    const reply = JSON.stringify({ id: '=>', error: { json: { message: 'No procedure', code: -32004 } } });
    expect(serverFrameViolations(sent, [reply])).toEqual([]);
  });

  it('still finds code text the server wrote itself, beside an echoed id', () => {
    const sent = [request('=>', 'session.ping')];
    const reply = JSON.stringify({ id: '=>', error: { json: { message: 'at run (/srv/host.ts:12:3)' } } });
    expect(serverFrameViolations(sent, [reply])).not.toEqual([]);
  });

  it('skips the results of probe.echo, which repeat the client’s own value', () => {
    const sent = [request(7, 'probe.echo')];
    expect(serverFrameViolations(sent, [JSON.stringify({ id: 7, result: { data: { stack: 'x => y' } } })])).toEqual([]);
  });
});
