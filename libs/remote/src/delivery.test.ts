import { afterEach, describe, expect, it, vi } from 'vitest';
import { runListener } from './delivery';

afterEach(() => vi.restoreAllMocks());

describe('a listener run isolated', () => {
  it('that throws is a PI_LISTENER_ERROR warning in its caller’s words, and the caller goes on', () => {
    const warned = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const ran: string[] = [];
    for (const listener of [() => ran.push('first'), () => throwing('gone'), () => ran.push('third')])
      runListener(listener, 'A fleet record listener threw');
    runListener(() => throwing('plain'));
    expect(ran).toEqual(['first', 'third']);
    expect(warned.mock.calls).toEqual([
      ['A fleet record listener threw: gone', { code: 'PI_LISTENER_ERROR' }],
      ['A state or event listener threw: plain', { code: 'PI_LISTENER_ERROR' }],
    ]);
  });

  it('that throws a value, not an Error, is reported with the value', () => {
    const warned = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    runListener(() => {
      throw 42;
    }, 'Sending streamed text failed');
    expect(warned.mock.calls).toEqual([['Sending streamed text failed: 42', { code: 'PI_LISTENER_ERROR' }]]);
  });
});

function throwing(message: string): never {
  throw new Error(message);
}
