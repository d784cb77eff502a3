import { describe, expect, it } from 'vitest';
import { coordinatorGateway } from './session-target';

describe('a coordinator gateway URL', () => {
  it('names its session, and the same coordinator’s URL for another session', () => {
    const gateway = coordinatorGateway('wss://coord.internal:7443/sessions/s-a');
    expect(gateway?.sessionId).toBe('s-a');
    expect(gateway?.urlFor('s-b')).toBe('wss://coord.internal:7443/sessions/s-b');
    expect(coordinatorGateway('wss://gw.example/pi/sessions/s-a/')?.urlFor('s-c')).toBe(
      'wss://gw.example/pi/sessions/s-c',
    );
  });

  it('is no gateway URL for a session’s own address, a session id that is no valid escape, or what is not a URL', () => {
    for (const url of [
      'wss://build-7:7444/',
      'wss://h/sessions/',
      'wss://h/sessions/a/b',
      'wss://h/sessions/%E0',
      'not a url',
    ])
      expect(coordinatorGateway(url), url).toBeUndefined();
  });
});
