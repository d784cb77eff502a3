import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { err, ok } from 'neverthrow';
import type { ModelProvider, SessionEntry } from '@pi/agent';
import type { LoadedFacet } from '@pi/host-kit';
import type { ManifestEntry } from '@pi/kernel';
import { RunSettingsService, type SessionFacet } from '@pi/plugin-api';
import {
  createRpcClient,
  listenWebSocket,
  loopbackFactory,
  tokenAuthentication,
  webSocketFactory,
  type RpcClient,
  type SocketFactory,
  type WebSocketListener,
} from '@pi/transport-trpc';
import { startSessionHost, type SessionHost, type SessionHostOptions } from './session-host';

export const TEST_SESSION_TOKEN = 'test-session-token';

export interface TestSessionHost {
  readonly host: SessionHost;
  /** The session's temporary directory: data/, config/, project/ and the session file live here. */
  readonly directory: string;
  readonly sessionFile: string;
  /** A client of the host over the chosen transport; closed with the fixture. */
  connect(): Promise<RpcClient>;
  /** Opens sockets to the host over the chosen transport, for clients a test builds itself. */
  readonly socketFactory: SocketFactory;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

export interface TestFacet {
  readonly id: string;
  readonly facet: SessionFacet;
  readonly config?: ManifestEntry['config'];
  /** The plugin API its package would declare (`pi.apiVersion`); absent: none is known. */
  readonly apiVersion?: string;
}

export interface TestSessionHostOptions {
  /** Facets in manifest order, as if loaded from plugins of those ids. */
  readonly facets: readonly TestFacet[];
  readonly transport?: 'loopback' | 'websocket';
  /** Reuse a directory (to restart a session on the same files); it is then left in place on close. */
  readonly directory?: string;
  /** Shorter hook deadlines, for tests of hooks that hang. */
  readonly hookDeadlines?: SessionHostOptions['hookDeadlines'];
  /** The harness's test seams: a disk that fails on request (FaultyDisk.wrap), a shorter model-wait notice. */
  readonly harness?: SessionHostOptions['harness'];
  /** Receives the host's log lines (what `pi-session` writes to stderr). */
  readonly log?: SessionHostOptions['log'];
  /** The facets a reload starts, by module generation (absent: a reload starts `facets` again). */
  readonly reloadFacets?: (generation: number) => readonly TestFacet[] | string;
  /** How long a reload lets calls into the replaced set finish. */
  readonly reloadDrainMs?: number;
  /** Where a reload reads the plugin set, as the app gives it (plugins read from disk); wins over `reloadFacets`. */
  readonly reloadSource?: SessionHostOptions['reloadSource'];
  /** The host's keep-alive towards its clients (tests of clients that die shorten it); default the transport's. */
  readonly keepAlive?: SessionHostOptions['transport']['keepAlive'];
  /** What the plugin set left out at start, as the app passes it (reported as `load` diagnostics). */
  readonly loadProblems?: SessionHostOptions['loadProblems'];
  /** The session's client of a coordinator (absent: a standalone session). */
  readonly upstream?: SessionHostOptions['upstream'];
}

/** Facets given in a test, as the host kit's loader would hand them over. */
export function loadedTestFacets(facets: readonly TestFacet[]): LoadedFacet<'session'>[] {
  return facets.map((facet) => ({
    id: facet.id,
    config: facet.config ?? null,
    facet: facet.facet,
    module: `test:${facet.id}`,
    ...(facet.apiVersion === undefined ? {} : { apiVersion: facet.apiVersion }),
  }));
}

/** A reload's plugin set read from a test's function: its facets, or a string as the reason it cannot be read. */
function testReloadSource(
  read: (generation: number) => readonly TestFacet[] | string,
): NonNullable<SessionHostOptions['reloadSource']> {
  return async (generation) => {
    const facets = read(generation);
    return typeof facets === 'string' ? err(facets) : ok(loadedTestFacets(facets));
  };
}

/** The options of a session host on `directory` running `facets` in order. */
export function testSessionHostOptions(directory: string, setup: { facets: readonly TestFacet[] }): SessionHostOptions {
  return {
    facets: loadedTestFacets(setup.facets),
    identity: { sessionId: 'test', workspaceId: 'test-workspace' },
    sessionFile: join(directory, 'data', 'sessions', 'test.jsonl'),
    paths: { dataDir: join(directory, 'data'), configDir: join(directory, 'config'), cwd: join(directory, 'project') },
    transport: { authenticate: tokenAuthentication(TEST_SESSION_TOKEN, { principal: 'test-user', claims: {} }) },
  };
}

/** A facet standing in for a providers plugin: contributes `provider` and selects its first model (thinking off). */
export function modelProviderFacet(provider: ModelProvider): SessionFacet {
  return (context) => {
    const [model] = provider.models();
    context.providers.add((draft) => draft.set(provider.id, provider));
    context.provide(RunSettingsService, {
      current: () => ({
        model: model === undefined ? null : { provider: provider.id, modelId: model.modelId },
        thinkingLevel: 'off',
      }),
    });
  };
}

/** A real session host on temporary files, for facet and plugin tests. A startup failure throws (and cleans up). */
export async function startTestSessionHost(options: TestSessionHostOptions): Promise<TestSessionHost> {
  const directory = options.directory ?? (await mkdtemp(join(tmpdir(), 'pi-session-')));
  const removeDirectory = async () => {
    if (options.directory === undefined) await rm(directory, { recursive: true, force: true });
  };
  const hostOptions = {
    ...testSessionHostOptions(directory, { facets: options.facets }),
    ...(options.hookDeadlines === undefined ? {} : { hookDeadlines: options.hookDeadlines }),
    ...(options.harness === undefined ? {} : { harness: options.harness }),
    ...(options.log === undefined ? {} : { log: options.log }),
    ...(options.reloadDrainMs === undefined ? {} : { reloadDrainMs: options.reloadDrainMs }),
    ...(options.reloadFacets === undefined ? {} : { reloadSource: testReloadSource(options.reloadFacets) }),
    ...(options.loadProblems === undefined ? {} : { loadProblems: options.loadProblems }),
    ...(options.reloadSource === undefined ? {} : { reloadSource: options.reloadSource }),
    ...(options.upstream === undefined ? {} : { upstream: options.upstream }),
  };
  if (options.keepAlive !== undefined) {
    hostOptions.transport = { ...hostOptions.transport, keepAlive: options.keepAlive };
  }
  const started = await startSessionHost(hostOptions);
  if (started.isErr()) {
    await removeDirectory();
    throw new Error(`${started.error.code}: ${started.error.message}`);
  }
  const host = started.value;
  const socketPath = join(directory, 'session.sock');
  let listener: WebSocketListener | undefined;
  if (options.transport === 'websocket') {
    const listened = await listenWebSocket(host.rpc, { socketPath });
    if (listened.isErr()) {
      await host.stop();
      await removeDirectory();
      throw new Error(listened.error.message);
    }
    listener = listened.value;
  }
  const factory = listener === undefined ? loopbackFactory(host.rpc) : webSocketFactory({ socketPath });
  const clients = new Set<RpcClient>();
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    for (const client of clients) client.close();
    await listener?.close();
    await host.stop();
    await removeDirectory();
  };
  return {
    host,
    directory,
    sessionFile: hostOptions.sessionFile,
    socketFactory: factory,
    async connect() {
      const client = createRpcClient({
        socketFactory: factory,
        connectionParams: { token: TEST_SESSION_TOKEN },
        reconnect: { minDelayMs: 10, maxDelayMs: 50 },
      });
      clients.add(client);
      await client.whenConnected();
      return client;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}

/**
 * A session host started as after `kill -9` of `crashed`: on its files as they are at this moment, with nothing of
 * the old host's shutdown (no stop hooks, no disposal, no last writes). This process cannot stop the old host
 * without it writing, so the files are copied into a directory of the new host's own (removed when it closes), and
 * only then is the old host closed, its clients cut off, writing to its own directory only.
 */
export async function restartAfterCrash(
  crashed: TestSessionHost,
  options: Omit<TestSessionHostOptions, 'directory'>,
): Promise<TestSessionHost> {
  const directory = await mkdtemp(join(tmpdir(), 'pi-session-crashed-'));
  // The socket is the old host's; the files (session, views, storage, the lock of a "dead" holder) are what a crash leaves.
  await cp(crashed.directory, directory, { recursive: true, filter: (source) => !source.endsWith('.sock') });
  await crashed.close();
  const restarted = await startTestSessionHost({ ...options, directory });
  const close = async () => {
    await restarted.close();
    await rm(directory, { recursive: true, force: true });
  };
  return { ...restarted, close, [Symbol.asyncDispose]: close };
}

/**
 * Writes the test session's file in `directory` with `count` user messages ("seeded message 0", …) on one branch,
 * as a long session restored from disk, so a host started on `directory` reopens it.
 */
export async function seedSessionFile(directory: string, count: number): Promise<void> {
  const file = testSessionHostOptions(directory, { facets: [] }).sessionFile;
  const header = {
    type: 'session',
    version: 1,
    sessionId: 'test',
    cwd: directory,
    createdAt: new Date().toISOString(),
  };
  const lines = [JSON.stringify(header)];
  for (let index = 0; index < count; index += 1) {
    const entry: SessionEntry = {
      id: `s${index}`,
      parentId: index === 0 ? null : `s${index - 1}`,
      timestamp: '2025-01-01T00:00:00.000Z',
      kind: 'message',
      operationId: null,
      message: { role: 'user', content: [{ type: 'text', text: `seeded message ${index}` }] },
    };
    lines.push(JSON.stringify(entry));
  }
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, `${lines.join('\n')}\n`, { mode: 0o600 });
}
