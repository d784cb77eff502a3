import { afterEach, describe, expect, it } from 'vitest';
import { startTestTuiHost, type TestTuiHost } from '@pi/host-tui/testing';
import { Models } from '@pi/providers-builtin';
import { eventually, startRpcFixture, type RpcFixture } from '@pi/test-support';
import type { RpcClient } from '@pi/transport-trpc';
import { providersBuiltinTuiFacet } from './providers-tui-facet';
import { ECHO, THINKER, standInModels, type StandInModels } from './testing/stand-in-models';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Fixture {
  readonly tui: TestTuiHost;
  readonly client: RpcClient;
  readonly models: StandInModels;
  /** Waits until the painted screen contains `text`. */
  shows(text: string): Promise<void>;
}

async function startFixture(models: StandInModels | null = standInModels()): Promise<Fixture> {
  const rpc: RpcFixture = await startRpcFixture('loopback', {
    provide: (registry) => void (models === null ? undefined : registry.provide(Models, models)),
  });
  cleanups.push(() => rpc.close());
  const client = await rpc.connect();
  const tui = await startTestTuiHost({ facets: { '@pi/providers-builtin': providersBuiltinTuiFacet }, client });
  cleanups.push(() => tui.stop());
  const shows = (text: string) =>
    eventually(() => {
      tui.host.flush();
      return tui.screen().includes(text);
    });
  return { tui, client, models: models ?? standInModels(), shows };
}

describe('the providers TUI facet', () => {
  it('shows the model and thinking level in the footer as soon as the session answers', async () => {
    const { shows } = await startFixture();
    await shows('offline/echo · thinking off');
  });

  it('Ctrl+L lists the catalogue with the current model marked; typing filters and Enter selects', async () => {
    const { tui, models, shows } = await startFixture();
    await tui.type('\x0c');
    await shows('Select a model');
    expect(tui.screen()).toContain('offline/echo — Offline echo  (current)');
    expect(tui.screen()).toContain('offline/thinker — Offline thinker');

    await tui.type('think');
    await shows('filter: think');
    expect(tui.screen()).not.toContain('offline/echo — Offline echo');
    await tui.type('\r');

    await shows('offline/thinker · thinking high');
    expect(models.selected).toEqual([{ provider: 'offline', modelId: 'thinker' }]);
    expect(tui.screen()).not.toContain('Select a model');
  });

  it('Esc closes the picker and keeps the model', async () => {
    const { tui, models, shows } = await startFixture();
    await tui.type('/model\r');
    await shows('Select a model');
    await tui.type('\x1b');
    await eventually(() => !tui.screen().includes('Select a model'));
    expect(models.selected).toEqual([]);
    expect(tui.screen()).toContain('offline/echo · thinking off');
  });

  it('the open picker says a refresh is running, and that the catalogue changed once it ends', async () => {
    const { tui, models, shows } = await startFixture();
    let release = () => undefined as void;
    models.refreshGate = new Promise<void>((resolve) => (release = resolve));
    models.refreshedModels = [ECHO, THINKER, { provider: 'lab', modelId: 'fresh', name: 'fresh', reasoning: false }];
    await tui.type('/refresh\r');
    await shows('refreshing models…');
    await tui.type('\x0c');
    await shows('Select a model');
    await shows('refreshing…');
    release();
    await shows('The catalogue changed while this was open: pick again to see it');
    expect(tui.screen()).not.toContain('refreshing…');
    await tui.type('\x1b');
    await shows('Models refreshed: 3 models');
    await tui.type('\x0c');
    await shows('lab/fresh');
    expect(tui.screen()).not.toContain('The catalogue changed');
  });

  it('/refresh reports the warning the catalogue ended with', async () => {
    const { tui, models, shows } = await startFixture();
    models.refreshOutcome = { status: 'warning', errors: { 'models.json': 'Unexpected token' } };
    await tui.type('/refresh\r');
    await shows('Models refreshed (2 models), with problems — models.json: Unexpected token');
  });

  it('/model provider/id selects directly, and an unknown one is a notice with the session’s reason', async () => {
    const { tui, shows } = await startFixture();
    await tui.type('/model offline/thinker\r');
    await shows('offline/thinker · thinking high');

    await tui.type('/model offline/nope\r');
    await shows('Model not changed: No model "offline/nope" in the catalogue (unknown_model)');
    expect(tui.screen()).toContain('offline/thinker · thinking high');
    expect(tui.host.failures()).toEqual([]);
  });

  it('Ctrl+T walks the thinking levels of a reasoning model', async () => {
    const { tui, shows } = await startFixture(standInModels([ECHO, THINKER], THINKER));
    await shows('offline/thinker · thinking off');
    await tui.type('\x14');
    await shows('offline/thinker · thinking low');
    await tui.type('\x14');
    await shows('offline/thinker · thinking high');
    await tui.type('\x14');
    await shows('offline/thinker · thinking off');
  });

  it('Ctrl+T on a model without reasoning says that thinking stays off', async () => {
    const { tui, shows } = await startFixture();
    await tui.type('\x14');
    await shows('offline/echo has no thinking levels: thinking stays off');
    expect(tui.screen()).toContain('offline/echo · thinking off');
  });

  it('against a session without Models the footer stays empty and the picker says why instead of failing', async () => {
    const { tui, shows } = await startFixture(null);
    await tui.type('\x0c');
    await shows('Model not changed: ');
    expect(tui.screen()).toContain('(unknown_service)');
    expect(tui.screen()).not.toContain('thinking');
  });

  it('stopping the TUI releases its subscription to Models', async () => {
    const { tui, client, shows } = await startFixture();
    await shows('offline/echo · thinking off');
    expect(client.activeServices).toBe(1);
    await tui.stop();
    await eventually(() => client.activeServices === 0);
  });
});
