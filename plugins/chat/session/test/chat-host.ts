import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import type { ModelProvider, SessionEntry } from '@pi/agent';
import {
  Chat,
  TranscriptReplica,
  applyChatCheckpoint,
  applyChatEvent,
  streamingViewFrom,
  type ChatEvent,
  type ChatService,
  type StreamingView,
  type TranscriptEntry,
} from '@pi/chat';
import { RunSettingsService, type SessionFacet } from '@pi/plugin-api';
import {
  TEST_SESSION_TOKEN,
  startTestSessionHost,
  seedSessionFile,
  type TestSessionHost,
  type TestSessionHostOptions,
} from '@pi/host-session/testing';
import { serveHost, type HostTransport } from '@pi/test-support';
import { createRpcClient, type RpcClient } from '@pi/transport-trpc';
import { chatSessionFacet, pluginId, projectTranscript } from '../src/index';

export type Transport = 'loopback' | 'websocket';

// Registered per test: with isolate off a worker imports this module once for many test files, so a hook
// registered at import would run for the first file only.

/** The providers plugin's part, reduced: contributes one provider and selects its first model. */
function modelFacet(provider: ModelProvider): SessionFacet {
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

/**
 * A session host with @pi/chat (and, given a provider, a selected model), closed after the test. `seeded` entries
 * (user messages s0, s1, …) are written to its session file first, as a long session restored from disk. A given
 * `directory` (from `sessionDirectory`) is used as is, so a second host over it reopens the same session file.
 */
export async function startChatHost(
  transport: Transport,
  provider: ModelProvider | null,
  options: {
    seeded?: number;
    directory?: string;
    harness?: TestSessionHostOptions['harness'];
    log?: TestSessionHostOptions['log'];
  } = {},
): Promise<TestSessionHost> {
  const facets = [
    ...(provider === null ? [] : [{ id: '@test/model', facet: modelFacet(provider) }]),
    { id: pluginId, facet: chatSessionFacet },
  ];
  const directory = options.seeded === undefined ? options.directory : await seededDirectory(options.seeded);
  const { harness, log } = options;
  const host = await startTestSessionHost({
    transport,
    facets,
    directory,
    ...(harness === undefined ? {} : { harness }),
    ...(log === undefined ? {} : { log }),
  });
  onTestFinished(() => host.close());
  return host;
}

/** The session's working directory (`project/` of its directory), created: where its shell commands run. */
export async function projectDirectory(host: TestSessionHost): Promise<string> {
  const project = join(host.directory, 'project');
  await mkdir(project, { recursive: true });
  return project;
}

/** A temporary directory for session hosts, removed after the test (after the hosts over it are closed). */
export async function sessionDirectory(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'pi-chat-'));
  onTestFinished(() => rm(directory, { recursive: true, force: true }));
  return directory;
}

async function seededDirectory(count: number): Promise<string> {
  const directory = await sessionDirectory();
  await seedSessionFile(directory, count);
  return directory;
}

/**
 * The host's RPC surface served once more over `transport`, recording every frame its clients receive and able to
 * go away and come back (`stop`/`restore`), closed after the test.
 */
export async function serveChatHost(host: TestSessionHost, transport: Transport): Promise<HostTransport> {
  const served = await serveHost(transport, host.host.rpc);
  onTestFinished(() => served.close());
  return served;
}

/** A client through a served transport; it reconnects quickly after the transport comes back. */
export async function connectThrough(served: HostTransport): Promise<RpcClient> {
  const client = createRpcClient({
    socketFactory: served.socketFactory,
    connectionParams: { token: TEST_SESSION_TOKEN },
    reconnect: { minDelayMs: 10, maxDelayMs: 50 },
  });
  onTestFinished(async () => client.close());
  await client.whenConnected();
  return client;
}

/** A client's Chat proxy plus everything it observed, in order. */
export interface ChatObserver {
  readonly chat: ChatService;
  /** The client's copy of the transcript, created in the turn the proxy hydrated. */
  readonly transcript: TranscriptReplica;
  readonly events: ChatEvent[];
  /** "Text so far" after every event or checkpoint, as a presentation would render it. */
  readonly views: Array<StreamingView | null>;
  view(): StreamingView | null;
}

export async function observeChat(host: TestSessionHost | RpcClient): Promise<ChatObserver> {
  const client = 'connect' in host ? await host.connect() : host;
  const chat = await client.use(Chat);
  const transcript = new TranscriptReplica(chat, { connection: client.connection });
  const events: ChatEvent[] = [];
  let view = streamingViewFrom(chat.streaming.value);
  const views: Array<StreamingView | null> = [view];
  chat.events.subscribe((event) => {
    events.push(event);
    views.push((view = applyChatEvent(view, event)));
  });
  chat.streaming.subscribe((checkpoint) => views.push((view = applyChatCheckpoint(view, checkpoint))));
  return { chat, transcript, events, views, view: () => view };
}

/** The durable entries of the session file (after its header line). */
export async function sessionFileEntries(host: TestSessionHost): Promise<SessionEntry[]> {
  const lines = (await readFile(host.sessionFile, 'utf8')).split('\n').filter((line) => line !== '');
  return lines.slice(1).map((line) => JSON.parse(line) as SessionEntry);
}

/** The session's branch as the transcript shows it, read from the session file: what every replica must equal. */
export async function sessionTranscript(host: TestSessionHost): Promise<TranscriptEntry[]> {
  return projectTranscript(await sessionFileEntries(host)).entries;
}
