import { afterEach, describe, expect, it } from 'vitest';
import type { UserMessage } from '@pi/agent';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { TRANSPORTS, eventually, remoteErrorOf } from '@pi/test-support';
import { modelsJson, startModelsHost, withoutBuiltins, type ModelsHost } from './testing/models-host';
import { settingsFacet } from './testing/stand-in-facets';

const hello: UserMessage[] = [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }];

describe.each(TRANSPORTS)('model selection over %s', (transport) => {
  let host: ModelsHost | undefined;

  afterEach(async () => {
    await host?.close();
    host = undefined;
  });

  /** Runs one prompt on the real harness and returns the model that answered, as `provider/modelId`. */
  const answeringModel = async (models: ModelsHost) => {
    const accepted = await models.probe.agent.main.prompt(hello, BACKGROUND_CONTEXT);
    if (accepted.isErr()) throw new Error(accepted.error.message);
    expect((await models.probe.agent.main.settled(accepted.value.operationId)).outcome).toBe('completed');
    const last = models.probe.agent.sessionTree.messages().at(-1);
    return last?.role === 'assistant' ? last.model : undefined;
  };

  it('runs out of the box on the offline provider', async () => {
    host = await startModelsHost({ transport });
    const models = await host.models();
    const catalog = models.state.value.catalog.availableModels;
    expect(catalog.slice(0, 2).map((model) => `${model.provider}/${model.modelId}`)).toEqual([
      'offline/echo',
      'offline/thinker',
    ]);
    // The built-in network providers follow, each marked: this session's environment holds no key.
    expect(withoutBuiltins(catalog)).toHaveLength(2);
    expect(catalog.slice(2).every((model) => model.keyMissing === true)).toBe(true);
    expect(catalog.some((model) => model.provider === 'anthropic' && model.modelId === 'claude-sonnet-4-5')).toBe(true);
    expect(models.state.value.configuration).toEqual({
      model: { provider: 'offline', modelId: 'echo' },
      thinkingLevel: 'off',
    });
    expect(models.state.value.refresh).toEqual({ status: 'idle' });
    expect(await answeringModel(host)).toBe('offline/echo');
  });

  it('shows a selection to every client and runs the next prompt on it', async () => {
    host = await startModelsHost({ transport });
    const [first, second] = [await host.models(), await host.models()];
    await first.select({ provider: 'offline', modelId: 'thinker' }, BACKGROUND_CONTEXT);
    await eventually(() => second.state.value.configuration.model?.modelId === 'thinker');
    expect(first.state.value.configuration).toEqual({
      model: { provider: 'offline', modelId: 'thinker' },
      thinkingLevel: 'high',
    });
    expect(second.state.value.configuration).toEqual(first.state.value.configuration);
    expect(await answeringModel(host)).toBe('offline/thinker');
  });

  it('rejects a model outside the catalogue with unknown_model', async () => {
    host = await startModelsHost({ transport });
    const models = await host.models();
    expect(
      (await remoteErrorOf(models.select({ provider: 'offline', modelId: 'gpt-99' }, BACKGROUND_CONTEXT))).code,
    ).toBe('unknown_model');
    expect(models.state.value.configuration.model).toEqual({ provider: 'offline', modelId: 'echo' });
  });

  it('cycles thinking off → low → high → off on a reasoning model and keeps a plain model at off', async () => {
    host = await startModelsHost({ transport });
    const [models, watcher] = [await host.models(), await host.models()];
    await models.cycleThinking(BACKGROUND_CONTEXT);
    expect(models.state.value.configuration.thinkingLevel).toBe('off');
    await models.select({ provider: 'offline', modelId: 'thinker' }, BACKGROUND_CONTEXT);
    const seen: string[] = [];
    for (let step = 0; step < 3; step++) {
      await models.cycleThinking(BACKGROUND_CONTEXT);
      seen.push(models.state.value.configuration.thinkingLevel);
    }
    expect(seen).toEqual(['off', 'low', 'high']);
    await eventually(() => watcher.state.value.configuration.thinkingLevel === 'high');
  });

  it('starts on the settings default model and thinking level when the settings plugin is present', async () => {
    host = await startModelsHost({
      transport,
      before: [
        {
          id: '@pi/settings',
          facet: settingsFacet({
            defaultModel: { provider: 'offline', modelId: 'thinker' },
            defaultThinkingLevel: 'low',
          }),
        },
      ],
    });
    const models = await host.models();
    expect(models.state.value.configuration).toEqual({
      model: { provider: 'offline', modelId: 'thinker' },
      thinkingLevel: 'low',
    });
  });

  it('ignores a settings default the catalogue does not offer', async () => {
    host = await startModelsHost({
      transport,
      before: [{ id: '@pi/settings', facet: settingsFacet({ defaultModel: { provider: 'gone', modelId: 'x' } }) }],
    });
    expect((await host.models()).state.value.configuration.model).toEqual({ provider: 'offline', modelId: 'echo' });
  });

  it('lists models.json providers after the offline one, and lets models.json replace a provider of the same id', async () => {
    host = await startModelsHost({
      transport,
      modelsFile: modelsJson({
        offline: { baseUrl: 'http://127.0.0.1:9/v1', models: [{ id: 'replaced', name: 'Replaced' }] },
        local: { baseUrl: 'http://127.0.0.1:9/v1', models: [{ id: 'small' }, { id: 'deep', reasoning: true }] },
      }),
    });
    const models = await host.models();
    expect(withoutBuiltins(models.state.value.catalog.availableModels)).toEqual([
      { provider: 'offline', modelId: 'replaced', name: 'Replaced', reasoning: false },
      { provider: 'local', modelId: 'small', name: 'small', reasoning: false },
      { provider: 'local', modelId: 'deep', name: 'deep', reasoning: true },
    ]);
    expect(models.state.value.configuration.model).toEqual({ provider: 'offline', modelId: 'replaced' });
  });
});
