import { afterEach, describe, expect, it } from 'vitest';
import { PLUGIN_API_VERSION, pluginApiMismatch } from '@pi/plugin-api';
import { PROTOCOL_VERSION } from '@pi/transport-trpc';
import { TRANSPORTS } from '@pi/test-support';
import { startTestSessionHost, type TestSessionHost } from './testing';

const fixtures: TestSessionHost[] = [];
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((fixture) => fixture.close()));
});

describe.each(TRANSPORTS)('the session hello over %s', (transport) => {
  it('names the protocol, the plugin API and the plugins of the session in the hello answer', async () => {
    const fixture = await startTestSessionHost({
      transport,
      facets: [
        { id: '@t/first', facet: () => undefined },
        { id: '@t/second', facet: () => undefined },
      ],
    });
    fixtures.push(fixture);
    const client = await fixture.connect();
    expect(client.host).toEqual({
      clientId: expect.any(String),
      protocol: PROTOCOL_VERSION,
      pluginApi: PLUGIN_API_VERSION,
      plugins: [{ id: '@t/first' }, { id: '@t/second' }],
    });
    expect(pluginApiMismatch(client.host?.pluginApi)).toBeNull();
    expect(pluginApiMismatch(client.host?.pluginApi, '9.0')).toBe(
      `the host runs plugin API ${PLUGIN_API_VERSION}, this pi 9.0`,
    );
  });
});
