import { afterEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { MAX_MODELS_JSON_BYTES, MAX_MODELS_JSON_MODELS, type YieldToLoop } from '@pi/model-providers';
import type { ModelsService } from '@pi/providers-builtin';
import { TRANSPORTS, eventually } from '@pi/test-support';
import { modelsJson, startModelsHost, type ModelsHost, withoutBuiltins } from './testing/models-host';

const baseUrl = 'http://127.0.0.1:9/v1';
// Every probe is answered at once, so the only warning a refresh reports is the file's.
const answering: typeof fetch = async () => new Response('{"object":"list","data":[]}', { status: 200 });
const local = modelsJson({ local: { baseUrl, models: [{ id: 'small' }] } });
/** A valid file with one model whose name makes it just over 1 MiB (1,025 KiB). */
const oversized = modelsJson({
  local: { baseUrl, models: [{ id: 'small', name: 'n'.repeat(MAX_MODELS_JSON_BYTES) }] },
});
const catalogue = (count: number) =>
  modelsJson({ big: { baseUrl, models: Array.from({ length: count }, (_, index) => ({ id: `m-${index}` })) } });

function fileWarning(models: ModelsService): string | undefined {
  const { refresh } = models.state.value;
  return refresh.status === 'warning' ? refresh.errors['models.json'] : undefined;
}

describe.each(TRANSPORTS)('models.json limits over %s', (transport) => {
  let host: ModelsHost | undefined;

  afterEach(async () => {
    await host?.close();
    host = undefined;
  });

  it.each([
    ['over the size limit', oversized, 'models.json is 1,025 KiB, over the 1,024 KiB limit: not loaded'],
    [
      'listing more models than the limit',
      catalogue(MAX_MODELS_JSON_MODELS + 1),
      'models.json lists 2,001 models, over the limit of 2,000: not loaded',
    ],
  ])(
    'keeps the last good catalogue of a file %s, warning with the limit on reload and refresh',
    async (_, file, warning) => {
      host = await startModelsHost({ transport, modelsFile: local, options: { fetch: answering } });
      const models = await host.models();
      const before = models.state.value.catalog;
      expect(before.availableModels.map((model) => model.modelId)).toContain('small');

      await host.writeModelsFile(file);
      await eventually(() => fileWarning(models) !== undefined);
      expect(fileWarning(models)).toBe(warning);
      expect(models.state.value.catalog).toEqual(before);

      await models.refresh(BACKGROUND_CONTEXT);
      expect(models.state.value.refresh).toEqual({ status: 'warning', errors: { 'models.json': warning } });
      expect(models.state.value.catalog).toEqual(before);
    },
  );

  it('refuses a file over the model limit at start and serves the offline catalogue', async () => {
    host = await startModelsHost({ transport, modelsFile: catalogue(MAX_MODELS_JSON_MODELS + 1) });
    const models = await host.models();
    expect(withoutBuiltins(models.state.value.catalog.availableModels).map((model) => model.provider)).toEqual([
      'offline',
      'offline',
    ]);
    expect(fileWarning(models)).toBe('models.json lists 2,001 models, over the limit of 2,000: not loaded');
  });

  it('answers another client between the steps of loading a catalogue of the model limit', async () => {
    const order: string[] = [];
    let steps = 0;
    const bystander: { call?: () => Promise<unknown> } = {};
    // Armed once the file is written; at its third step the load waits for a call on another connection.
    const yieldToLoop: YieldToLoop = async () => {
      if (bystander.call === undefined) return;
      steps += 1;
      if (steps === 3) await bystander.call().then(() => order.push('bystander answered'));
      await new Promise((resolve) => setImmediate(resolve));
    };
    host = await startModelsHost({ transport, options: { fetch: answering, yieldToLoop } });
    const models = await host.models();
    const offline = models.state.value.catalog.availableModels.length;
    models.state.subscribe((state) => {
      const shown = state.catalog.availableModels.length === offline + MAX_MODELS_JSON_MODELS;
      if (shown && !order.includes('catalogue shown')) order.push('catalogue shown');
    });
    const other = await host.fixture.connect();
    bystander.call = () => other.describe();

    await host.writeModelsFile(catalogue(MAX_MODELS_JSON_MODELS));
    await eventually(() => order.includes('catalogue shown'));
    expect(order).toEqual(['bystander answered', 'catalogue shown']);
    expect(steps).toBeGreaterThanOrEqual(MAX_MODELS_JSON_MODELS / 250);
    expect(fileWarning(models)).toBeUndefined();
  });
});
