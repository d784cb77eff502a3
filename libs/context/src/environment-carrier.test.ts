import { describe, expect, it } from 'vitest';
import { takeEnvironmentCarrier, withEnvironmentCarrier } from './environment-carrier';

const TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

describe('withEnvironmentCarrier', () => {
  it("puts the carrier in a child's environment as TRACEPARENT and TRACESTATE, the rest untouched", () => {
    const env = { PATH: '/bin', TRACEPARENT: 'stale', TRACESTATE: 'stale=1' };
    expect(withEnvironmentCarrier(env, { traceparent: TRACEPARENT, tracestate: 'pi=1' })).toEqual({
      PATH: '/bin',
      TRACEPARENT,
      TRACESTATE: 'pi=1',
    });
    expect(env.TRACEPARENT).toBe('stale');
  });

  it('passes on no carrier of its own when there is no span to carry', () => {
    expect(withEnvironmentCarrier({ PATH: '/bin', TRACEPARENT: 'stale', TRACESTATE: 's=1' }, {})).toEqual({
      PATH: '/bin',
    });
  });
});

describe('takeEnvironmentCarrier', () => {
  it('reads the span this process was started under and removes the variables', () => {
    const env: NodeJS.ProcessEnv = { PATH: '/bin', TRACEPARENT, TRACESTATE: 'pi=1' };
    const parent = takeEnvironmentCarrier(env);
    expect(parent).toMatchObject({ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331' });
    expect(env).toEqual({ PATH: '/bin' });
  });

  it('is a context with no span for a missing or malformed TRACEPARENT', () => {
    expect(takeEnvironmentCarrier({}).spanId).toBeUndefined();
    const env: NodeJS.ProcessEnv = { TRACEPARENT: 'not-a-traceparent' };
    expect(takeEnvironmentCarrier(env).spanId).toBeUndefined();
    expect(env).toEqual({});
  });
});
