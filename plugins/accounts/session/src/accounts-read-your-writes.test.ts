import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Accounts, Credentials } from '@pi/accounts';
import type { ModelProvider } from '@pi/agent';
import { BACKGROUND_CONTEXT } from '@pi/context';
import type { CodingAgentSessionPluginContext } from '@pi/plugin-api';
import { TEST_SESSION_TOKEN, startTestSessionHost, type TestSessionHost } from '@pi/host-session/testing';
import { TRANSPORTS, serveHost, type HostTransport } from '@pi/test-support';
import { createRpcClient, type RpcClient } from '@pi/transport-trpc';
import { sessionFacet } from './index';

const PROVIDERS = ['anthropic', 'openrouter'] as const;

function silentProvider(id: string): ModelProvider {
  return {
    id,
    name: id,
    models: () => [],
    stream: async function* () {
      // Never asked to answer in these tests.
    },
  };
}

/**
 * A facet that reacts to stored keys the way the built-in providers plugin does: on every credential change it
 * re-reads the store, then rebuilds the providers registry, which makes the accounts façade publish again while
 * the publish of the call that stored the key is still reading.
 */
function reactiveProviderPlugin(context: CodingAgentSessionPluginContext): void {
  for (const id of PROVIDERS) context.providers.add((draft) => draft.set(id, silentProvider(id)));
  context.onActivate(() => {
    const store = context.use(Credentials);
    let rebuilds = 0;
    context.own(
      store.onChange(() => {
        void store.list().then(() => {
          const extra = `keyed-${++rebuilds}`;
          const remove = context.providers.add((draft) => draft.set(extra, silentProvider(extra)));
          queueMicrotask(remove);
        });
      }),
    );
  });
}

describe.each(TRANSPORTS)('the accounts façade reads its own writes over %s', (kind) => {
  let fixture: TestSessionHost;
  let transport: HostTransport;
  let client: RpcClient;

  beforeEach(async () => {
    fixture = await startTestSessionHost({
      facets: [
        { id: '@pi/accounts', facet: sessionFacet },
        { id: 'reactive-provider-plugin', facet: reactiveProviderPlugin },
      ],
    });
    transport = await serveHost(kind, fixture.host.rpc);
    client = createRpcClient({
      socketFactory: transport.socketFactory,
      connectionParams: { token: TEST_SESSION_TOKEN },
    });
    await client.whenConnected();
  });

  afterEach(async () => {
    client.close();
    await transport.close();
    await fixture.close();
  });

  const configured = (state: { providers: Array<{ provider: string; configured: boolean }> }, provider: string) =>
    state.providers.find((entry) => entry.provider === provider)?.configured ?? false;

  it('shows a stored or removed key in the caller replica as soon as setKey or remove resolves', async () => {
    const accounts = await client.use(Accounts);
    const lagging: string[] = [];
    for (let iteration = 0; iteration < 20; iteration++) {
      const provider = PROVIDERS[iteration % PROVIDERS.length] ?? 'openrouter';
      await accounts.setKey(provider, `sk-test-${iteration}`, BACKGROUND_CONTEXT);
      if (!configured(accounts.state.value, provider)) lagging.push(`set ${provider} #${iteration}`);
      await accounts.remove(provider, BACKGROUND_CONTEXT);
      if (configured(accounts.state.value, provider)) lagging.push(`remove ${provider} #${iteration}`);
    }
    expect(lagging).toEqual([]);
  });
});
