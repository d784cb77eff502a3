import { readFile } from 'node:fs/promises';
import { afterEach } from 'vitest';
import type { ModelProvider, SessionEntry } from '@pi/agent';
import {
  Chat,
  applyChatCheckpoint,
  applyChatEvent,
  streamingViewFrom,
  type ChatEvent,
  type ChatService,
  type StreamingView,
} from '@pi/chat';
import { RunSettingsService, type SessionFacet } from '@pi/plugin-api';
import { startTestSessionHost, type TestSessionHost } from '@pi/host-session/testing';
import { chatSessionFacet, pluginId } from '../src/index';

export type Transport = 'loopback' | 'websocket';

const hosts: TestSessionHost[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

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

/** A session host with @pi/chat (and, given a provider, a selected model), closed after the test. */
export async function startChatHost(transport: Transport, provider: ModelProvider | null): Promise<TestSessionHost> {
  const facets = [
    ...(provider === null ? [] : [{ id: '@test/model', facet: modelFacet(provider) }]),
    { id: pluginId, facet: chatSessionFacet },
  ];
  const host = await startTestSessionHost({ transport, facets });
  hosts.push(host);
  return host;
}

/** A client's Chat proxy plus everything it observed, in order. */
export interface ChatObserver {
  readonly chat: ChatService;
  readonly events: ChatEvent[];
  /** "Text so far" after every event or checkpoint, as a presentation would render it. */
  readonly views: Array<StreamingView | null>;
  view(): StreamingView | null;
}

export async function observeChat(host: TestSessionHost): Promise<ChatObserver> {
  const client = await host.connect();
  const chat = await client.use(Chat);
  const events: ChatEvent[] = [];
  let view = streamingViewFrom(chat.streaming.value);
  const views: Array<StreamingView | null> = [view];
  chat.events.subscribe((event) => {
    events.push(event);
    views.push((view = applyChatEvent(view, event)));
  });
  chat.streaming.subscribe((checkpoint) => views.push((view = applyChatCheckpoint(view, checkpoint))));
  return { chat, events, views, view: () => view };
}

/** The durable entries of the session file (after its header line). */
export async function sessionFileEntries(host: TestSessionHost): Promise<SessionEntry[]> {
  const lines = (await readFile(host.sessionFile, 'utf8')).split('\n').filter((line) => line !== '');
  return lines.slice(1).map((line) => JSON.parse(line) as SessionEntry);
}
