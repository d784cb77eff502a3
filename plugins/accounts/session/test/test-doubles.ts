import { vi } from 'vitest';
import { Credentials, type CredentialStore } from '@pi/accounts';
import type { ModelProvider, ProviderLogin } from '@pi/agent';
import { installInMemoryTelemetry, type InMemoryTelemetry } from '@pi/context/testing';
import { TEST_SESSION_TOKEN, startTestSessionHost, type TestSessionHost } from '@pi/host-session/testing';
import type { CodingAgentSessionPluginContext } from '@pi/plugin-api';
import { serveHost, type HostTransport, type TransportKind } from '@pi/test-support';
import { createRpcClient, type RpcClient } from '@pi/transport-trpc';
import { sessionFacet } from '../src/index';

/** A provider in the registry that is never asked to answer; with `login`, it signs in through OAuth. */
export function silentProvider(id: string, login?: ProviderLogin): ModelProvider {
  return {
    id,
    name: id,
    ...(login === undefined ? {} : { login }),
    models: () => [],
    stream: async function* () {
      // Never asked to answer in these tests.
    },
  };
}

/** Everything this process wrote to the console or its standard streams while the test ran. */
export function captureLogs(): { text(): string; restore(): void } {
  const lines: string[] = [];
  const record = (...args: unknown[]) =>
    void lines.push(args.map((arg) => (typeof arg === 'string' ? arg : JSON.stringify(arg))).join(' '));
  const spies = [
    ...(['log', 'info', 'warn', 'error', 'debug', 'trace'] as const).map((method) =>
      vi.spyOn(console, method).mockImplementation(record),
    ),
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (record(String(chunk)), true)),
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (record(String(chunk)), true)),
  ];
  return { text: () => lines.join('\n'), restore: () => spies.forEach((spy) => spy.mockRestore()) };
}

/** The accounts session facet beside a stand-in provider plugin, served over one transport, with telemetry recorded. */
export interface AccountsHost {
  readonly session: TestSessionHost;
  readonly transport: HostTransport;
  readonly telemetry: InMemoryTelemetry;
  /** The local credential store, as provider plugins use it. */
  credentials(): CredentialStore;
  /** A new client of the session (closed by `close`). */
  connect(): Promise<RpcClient>;
  close(): Promise<void>;
}

export async function startAccountsHost(
  kind: TransportKind,
  providers: readonly ModelProvider[],
): Promise<AccountsHost> {
  const telemetry = installInMemoryTelemetry();
  let store: CredentialStore | undefined;
  const providerPlugin = (context: CodingAgentSessionPluginContext) => {
    context.providers.add((draft) => {
      for (const provider of providers) draft.set(provider.id, provider);
    });
    context.onActivate(() => void (store = context.use(Credentials)));
  };
  const session = await startTestSessionHost({
    facets: [
      { id: '@pi/accounts', facet: sessionFacet },
      { id: 'provider-plugin', facet: providerPlugin },
    ],
  });
  const transport = await serveHost(kind, session.host.rpc);
  const clients: RpcClient[] = [];
  return {
    session,
    transport,
    telemetry,
    credentials() {
      if (store === undefined) throw new Error('the provider plugin has not been activated');
      return store;
    },
    async connect() {
      const client = createRpcClient({
        socketFactory: transport.socketFactory,
        connectionParams: { token: TEST_SESSION_TOKEN },
      });
      clients.push(client);
      await client.whenConnected();
      return client;
    },
    async close() {
      for (const client of clients.splice(0)) client.close();
      await transport.close();
      await session.close();
      telemetry.uninstall();
    },
  };
}
