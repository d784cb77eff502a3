import { afterEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { TRANSPORTS, eventually } from '@pi/test-support';
import { modelsJson, startModelsHost, withoutBuiltins, type ModelsHost } from './testing/models-host';

const local = modelsJson({ local: { baseUrl: 'http://127.0.0.1:9/v1', models: [{ id: 'small' }] } });
const ids = (host: {
  state: { value: { catalog: { availableModels: Array<{ provider: string; modelId: string }> } } };
}) => withoutBuiltins(host.state.value.catalog.availableModels).map((model) => `${model.provider}/${model.modelId}`);

describe.each(TRANSPORTS)('models.json hot reload over %s', (transport) => {
  let host: ModelsHost | undefined;

  afterEach(async () => {
    await host?.close();
    host = undefined;
  });

  it('adds the providers of a models.json written while the session runs', async () => {
    host = await startModelsHost({ transport });
    const models = await host.models();
    const revision = models.state.value.catalog.revision;
    await host.writeModelsFile(local);
    await eventually(() => ids(models).includes('local/small'));
    expect(ids(models)).toEqual(['offline/echo', 'offline/thinker', 'local/small']);
    expect(models.state.value.catalog.revision).toBe(revision + 1);
    await eventually(() => models.state.value.refresh.status === 'done');
  });

  it('keeps the last good catalogue when the file breaks, reports a warning, and recovers when it is fixed', async () => {
    host = await startModelsHost({ transport, modelsFile: local });
    const models = await host.models();
    const before = models.state.value.catalog;
    await host.writeModelsFile('{ "providers": ');
    await eventually(() => models.state.value.refresh.status === 'warning');
    expect(models.state.value.refresh).toEqual({
      status: 'warning',
      errors: { 'models.json': 'models.json is not valid JSON' },
    });
    expect(models.state.value.catalog).toEqual(before);

    await host.writeModelsFile(
      modelsJson({ local: { baseUrl: 'http://127.0.0.1:9/v1', models: [{ id: 'small' }, { id: 'medium' }] } }),
    );
    await eventually(() => models.state.value.refresh.status === 'done');
    expect(ids(models)).toContain('local/medium');
  });

  it('reports an invalid config by its issues, without the file path', async () => {
    host = await startModelsHost({ transport });
    const models = await host.models();
    await host.writeModelsFile({ providers: { local: { baseUrl: 'not a url', models: [] } } });
    await eventually(() => models.state.value.refresh.status === 'warning');
    const refresh = models.state.value.refresh;
    const text = refresh.status === 'warning' ? (refresh.errors['models.json'] ?? '') : '';
    expect(text).toMatch(/^models\.json: providers\.local\.baseUrl: /);
    expect(text).not.toContain(host.fixture.directory);
  });

  it('reports a file that is broken at start and serves the offline catalogue', async () => {
    host = await startModelsHost({ transport, modelsFile: '{' });
    const models = await host.models();
    expect(ids(models)).toEqual(['offline/echo', 'offline/thinker']);
    expect(models.state.value.refresh).toEqual({
      status: 'warning',
      errors: { 'models.json': 'models.json is not valid JSON' },
    });
  });

  it('falls back to the default model when the selected provider is removed from the file', async () => {
    host = await startModelsHost({ transport, modelsFile: local });
    const models = await host.models();
    await models.select({ provider: 'local', modelId: 'small' }, BACKGROUND_CONTEXT);
    await host.writeModelsFile(modelsJson({}));
    await eventually(() => !ids(models).includes('local/small'));
    expect(models.state.value.configuration.model).toEqual({ provider: 'offline', modelId: 'echo' });
  });
});
