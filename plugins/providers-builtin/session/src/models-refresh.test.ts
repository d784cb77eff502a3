import { afterEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT, withAbortSignal } from '@pi/context';
import { installInMemoryTelemetry } from '@pi/context/testing';
import { TRANSPORTS, eventually, remoteErrorOf } from '@pi/test-support';
import { startFakeModelsServer, type FakeModelsServer } from './testing/fake-models-server';
import { modelsJson, startModelsHost, type ModelsHost } from './testing/models-host';
import { credentialsFacet, memoryCredentials } from './testing/stand-in-facets';

const STORED_KEY = 'sk-stored-0a1b2c3d';

describe.each(TRANSPORTS)('Models.refresh over %s', (transport) => {
  let host: ModelsHost | undefined;
  let server: FakeModelsServer | undefined;

  afterEach(async () => {
    await host?.close();
    await server?.close();
    host = undefined;
    server = undefined;
  });

  const routerFile = (baseUrl: string) =>
    modelsJson({ router: { baseUrl, apiKeyEnv: 'ROUTER_KEY', models: [{ id: 'big', reasoning: true }] } });

  it('probes each configured server with its stored key and reports done', async () => {
    server = await startFakeModelsServer('ok');
    host = await startModelsHost({
      transport,
      modelsFile: routerFile(server.baseUrl),
      before: [{ id: '@pi/accounts', facet: credentialsFacet(memoryCredentials({ router: STORED_KEY })) }],
    });
    const models = await host.models();
    await models.refresh(BACKGROUND_CONTEXT);
    expect(models.state.value.refresh).toEqual({ status: 'done' });
    expect(server.authorizations).toEqual([`Bearer ${STORED_KEY}`]);
  });

  it('falls back to the apiKeyEnv variable without the accounts plugin', async () => {
    server = await startFakeModelsServer('ok');
    host = await startModelsHost({
      transport,
      modelsFile: routerFile(server.baseUrl),
      options: { env: { ROUTER_KEY: 'sk-from-env' } },
    });
    await (await host.models()).refresh(BACKGROUND_CONTEXT);
    expect(server.authorizations).toEqual(['Bearer sk-from-env']);
  });

  it('reports a refused key and a missing key as warnings by provider', async () => {
    server = await startFakeModelsServer('unauthorized');
    host = await startModelsHost({
      transport,
      modelsFile: modelsJson({
        router: { baseUrl: server.baseUrl, apiKeyEnv: 'ROUTER_KEY', models: [{ id: 'big' }] },
        other: { baseUrl: server.baseUrl, apiKeyEnv: 'OTHER_KEY', models: [{ id: 'x' }] },
      }),
      options: { env: { ROUTER_KEY: 'sk-wrong' } },
    });
    const models = await host.models();
    await models.refresh(BACKGROUND_CONTEXT);
    expect(models.state.value.refresh).toEqual({
      status: 'warning',
      errors: { router: 'HTTP 401 Unauthorized', other: 'no API key is stored and OTHER_KEY is not set' },
    });
  });

  it('re-reads models.json, so an edit applies on refresh', async () => {
    host = await startModelsHost({ transport, options: { watchDebounceMs: 60_000 } });
    const models = await host.models();
    await host.writeModelsFile(modelsJson({ local: { baseUrl: 'http://127.0.0.1:9/v1', models: [{ id: 'small' }] } }));
    await models.refresh(BACKGROUND_CONTEXT);
    expect(models.state.value.catalog.availableModels.map((model) => model.modelId)).toContain('small');
    expect(models.state.value.refresh).toEqual({
      status: 'warning',
      errors: { local: expect.stringMatching(/^unreachable \(/) },
    });
  });

  it('cancels only the aborted call, leaving the status as it was and the other refresh running', async () => {
    server = await startFakeModelsServer('hold');
    host = await startModelsHost({
      transport,
      modelsFile: routerFile(server.baseUrl),
      options: { env: { ROUTER_KEY: 'sk-env' } },
    });
    const [first, second] = [await host.models(), await host.models()];
    const controller = new AbortController();
    const aborted = first.refresh(withAbortSignal(controller.signal, BACKGROUND_CONTEXT));
    await eventually(() => server?.held === 1);
    await eventually(() => second.state.value.refresh.status === 'refreshing');

    controller.abort();
    expect((await remoteErrorOf(aborted)).code).toBe('cancelled');
    await eventually(() => server?.held === 0); // the server-side probe was aborted, not just the client's wait
    await eventually(() => second.state.value.refresh.status === 'idle');

    const kept = new AbortController();
    const cancelled = first.refresh(withAbortSignal(kept.signal, BACKGROUND_CONTEXT));
    const running = second.refresh(BACKGROUND_CONTEXT);
    await eventually(() => server?.held === 2);
    kept.abort();
    expect((await remoteErrorOf(cancelled)).code).toBe('cancelled');
    await eventually(() => server?.held === 1);
    expect(first.state.value.refresh.status).toBe('refreshing');
    server.release();
    await running;
    await eventually(() => first.state.value.refresh.status === 'done');
  });

  it('records the refresh under its own span', async () => {
    const telemetry = installInMemoryTelemetry();
    try {
      host = await startModelsHost({ transport });
      await (await host.models()).refresh(BACKGROUND_CONTEXT);
      const names = telemetry.spans().map((span) => span.name);
      expect(names).toContain('plugin.models.refresh');
      const refresh = telemetry.spans().find((span) => span.name === 'plugin.models.refresh');
      const serverSpan = telemetry.spans().find((span) => span.name === 'rpc.server models.refresh');
      expect(refresh?.parentSpanId).toBe(serverSpan?.spanId);
    } finally {
      telemetry.uninstall();
    }
  });
});
