import { afterEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import {
  Catalog,
  Probe,
  TRANSPORTS,
  createCatalog,
  createProbe,
  nextValue,
  startRpcFixture,
  type RpcFixture,
} from '@pi/test-support';

describe.each(TRANSPORTS)('smoke over %s', (kind) => {
  let fixture: RpcFixture;
  afterEach(() => fixture.close());

  it('calls, watches and replicates', async () => {
    const catalog = createCatalog();
    fixture = await startRpcFixture(kind, {
      provide: (registry) => {
        registry.provide(Catalog, catalog);
        registry.provide(Probe, createProbe());
      },
    });
    const client = await fixture.connect();
    const probe = await client.use(Probe);
    expect(await probe.echo({ a: [1, 'x', null] }, BACKGROUND_CONTEXT)).toEqual({ a: [1, 'x', null] });
    expect(await probe.nothing(BACKGROUND_CONTEXT)).toBeUndefined();
    const remote = await client.use(Catalog);
    expect(remote.state.value.thinkingLevel).toBe('high');
    await remote.select({ provider: 'local', modelId: 'small' }, BACKGROUND_CONTEXT);
    const value = await nextValue(remote.state, (v) => v.selected !== null);
    expect(value.selected).toEqual({ provider: 'local', modelId: 'small' });
  });
});
