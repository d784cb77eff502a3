import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ObjectExposure } from './exposure';
import { defineInteraction, defineLocalService, defineRemoteService } from './tokens';

const empty: ObjectExposure<Record<string, never>> = { methods: {}, state: {}, events: {} };

function withMethod(member: string): ObjectExposure<Record<string, never>> {
  return { methods: { [member]: { args: [], result: z.void() } }, state: {}, events: {} } as unknown as ObjectExposure<
    Record<string, never>
  >;
}

describe('tokens', () => {
  it('makes frozen tokens that carry their kind, id and exposure', () => {
    const remoteToken = defineRemoteService('models', empty);
    const localToken = defineLocalService('vault');
    expect(remoteToken).toMatchObject({ kind: 'remote-service', id: 'models' });
    expect(remoteToken.exposure).toEqual(empty);
    expect(localToken).toEqual({ kind: 'local-service', id: 'vault' });
    expect(Object.isFrozen(remoteToken)).toBe(true);
    expect(Object.isFrozen(localToken)).toBe(true);
  });

  it.each(['Models', '1models', 'models.list', 'models/list', '$rpc', '', 'a'.repeat(65), 'my_service'])(
    'rejects the id %j, which cannot be a wire path segment',
    (id) => {
      expect(() => defineRemoteService(id, empty)).toThrow(TypeError);
      expect(() => defineLocalService(id)).toThrow(TypeError);
      expect(() => defineInteraction(id, { request: z.null(), response: z.null() })).toThrow(TypeError);
    },
  );

  it.each(['then', 'constructor', 'toString', 'call', 'bind', '$watch', '__proto__', 'a.b', '1st', 'x'.repeat(65)])(
    'rejects the member name %j',
    (member) => {
      expect(() => defineRemoteService('svc', withMethod(member))).toThrow(/cannot be a member name/);
    },
  );

  it('checks state and event member names too', () => {
    const badState = { methods: {}, state: { then: z.null() }, events: {} } as unknown as ObjectExposure<
      Record<string, never>
    >;
    const badEvents = { methods: {}, state: {}, events: { 'on-change': z.null() } } as unknown as ObjectExposure<
      Record<string, never>
    >;
    expect(() => defineRemoteService('svc', badState)).toThrow(/"then"/);
    expect(() => defineRemoteService('svc', badEvents)).toThrow(/"on-change"/);
  });

  it('keeps the request and response schemas of an interaction', () => {
    const request = z.object({ question: z.string() });
    const response = z.object({ ok: z.boolean() });
    const interaction = defineInteraction('confirm', { request, response });
    expect(interaction).toMatchObject({ kind: 'interaction', id: 'confirm' });
    expect(interaction.request).toBe(request);
    expect(interaction.response).toBe(response);
  });
});
