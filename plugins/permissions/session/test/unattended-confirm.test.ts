import { describe, expect, it } from 'vitest';
import { bashPrompt, durableToolResults, startPermissionsHost, type Transport } from './permissions-host';

describe.each<Transport>(['loopback', 'websocket'])('an unattended session over %s', (transport) => {
  it('with no client connected, a guarded call is denied after the configured wait and the run settles', async () => {
    const host = await startPermissionsHost(transport, { unattendedTimeoutMs: 150 });

    const started = performance.now();
    const { outcome } = await host.run(bashPrompt('echo hi'));
    const waited = performance.now() - started;

    expect(outcome).toEqual({ outcome: 'completed', error: null });
    expect(waited).toBeGreaterThanOrEqual(140);
    expect(host.runs).toEqual([]);
    expect((await durableToolResults(host.fixture))[0]).toMatchObject({ isError: true, details: { code: 'timeout' } });
  });
});
