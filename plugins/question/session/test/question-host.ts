import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import type { AgentLanePluginView, SessionFacet, ViewsService } from '@pi/plugin-api';
import { RunSettingsService, ViewReplica, Views } from '@pi/plugin-api';
import { QuestionView, type QuestionRequest, type QuestionResponse } from '@pi/question';
import {
  TEST_SESSION_TOKEN,
  restartAfterCrash,
  startTestSessionHost,
  type TestSessionHost,
} from '@pi/host-session/testing';
import type { AgentMessage, RunOutcome, SessionEntry, ToolResultMessage } from '@pi/agent';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { OFFLINE_PROVIDER_ID, createOfflineProvider } from '@pi/model-providers';
import { openRawChannel, type RawChannel } from '@pi/test-support';
import { loopbackFactory, webSocketFactory, type RpcClient } from '@pi/transport-trpc';
import { pluginId, questionSessionFacet } from '../src/index';

export type Transport = 'loopback' | 'websocket';

/** The offline model asks through the question tool when a prompt says "ask me …: a, b or c". */
export const ASK_COLOR = 'ask me which color I like: red, green or blue';

// Registered per test: with isolate off a worker imports this module once for many test files, so a hook
// registered at import would run for the first file only.

/** Selects the offline model, as the providers plugin would. */
const offlineModel: SessionFacet = (context) => {
  context.providers.add((draft) => draft.set(OFFLINE_PROVIDER_ID, createOfflineProvider()));
  context.provide(RunSettingsService, {
    current: () => ({ model: { provider: OFFLINE_PROVIDER_ID, modelId: 'echo' }, thinkingLevel: 'off' }),
  });
};

export interface QuestionHost {
  readonly fixture: TestSessionHost;
  /** Prompts the main lane directly (Chat is another plugin) and waits for the run to settle. */
  ask(text: string): Promise<{ operationId: string; outcome: RunOutcome }>;
  start(text: string): Promise<string>;
  readonly lane: AgentLanePluginView;
}

export async function startQuestionHost(
  transport: Transport,
  config: { timeoutMs?: number; unattendedTimeoutMs?: number } | null = null,
): Promise<QuestionHost> {
  const driver = questionFacets(config);
  const fixture = await startTestSessionHost({ transport, facets: driver.facets });
  return questionHost(fixture, driver.lane());
}

/**
 * The question host of `crashed` after a `kill -9` (see `restartAfterCrash`): a new session process on the files the
 * old one left, running the same plugins (or the same without the question plugin).
 */
export async function restartQuestionHost(
  crashed: QuestionHost,
  transport: Transport,
  { withQuestion = true }: { withQuestion?: boolean } = {},
): Promise<QuestionHost> {
  const driver = questionFacets(null);
  const facets = withQuestion ? driver.facets : driver.facets.filter((facet) => facet.id !== pluginId);
  const fixture = await restartAfterCrash(crashed.fixture, { transport, facets });
  return questionHost(fixture, driver.lane());
}

/** The offline model, the question plugin, and a driver facet that hands the test the main lane. */
function questionFacets(config: { timeoutMs?: number; unattendedTimeoutMs?: number } | null) {
  let lane: AgentLanePluginView | undefined;
  const facets = [
    { id: '@test/model', facet: offlineModel },
    { id: pluginId, facet: questionSessionFacet, config },
    { id: '@test/driver', facet: ((context) => void (lane = context.agent.main)) satisfies SessionFacet },
  ];
  return {
    facets,
    lane: () => {
      if (lane === undefined) throw new Error('the driver facet did not run');
      return lane;
    },
  };
}

function questionHost(fixture: TestSessionHost, driven: AgentLanePluginView): QuestionHost {
  onTestFinished(() => fixture.close());
  const start = async (text: string) => {
    const accepted = await driven.prompt([{ role: 'user', content: [{ type: 'text', text }] }], BACKGROUND_CONTEXT);
    if (accepted.isErr()) throw new Error(`prompt rejected: ${accepted.error.message}`);
    return accepted.value.operationId;
  };
  return {
    fixture,
    lane: driven,
    start,
    async ask(text) {
      const operationId = await start(text);
      return { operationId, outcome: await driven.settled(operationId) };
    },
  };
}

/**
 * Resolves once the durable views file beside the session file names `text` (a view id, or a component): a durable
 * view is written there as it opens, so a question named there is being asked.
 */
export async function viewsFileNames(fixture: TestSessionHost, text: string): Promise<void> {
  const file = `${fixture.sessionFile}.views.json`;
  const says = async () => (await readFile(file, 'utf8').catch(() => '')).includes(text);
  while (!(await says())) await new Promise((next) => setImmediate(next));
}

/** The durable messages of the session file. */
export async function durableMessages(fixture: TestSessionHost): Promise<AgentMessage[]> {
  const lines = (await readFile(fixture.sessionFile, 'utf8')).split('\n').filter((line) => line !== '');
  return lines
    .slice(1)
    .map((line) => JSON.parse(line) as SessionEntry)
    .flatMap((entry) => (entry.kind === 'message' ? [entry.message] : []));
}

export async function durableToolResult(fixture: TestSessionHost): Promise<ToolResultMessage> {
  const result = (await durableMessages(fixture)).find(
    (message): message is ToolResultMessage => message.role === 'tool',
  );
  if (result === undefined) throw new Error('no tool result in the session file');
  return result;
}

/** The text of the model's last answer in the session file. */
export async function finalAnswer(fixture: TestSessionHost): Promise<string> {
  const last = (await durableMessages(fixture)).at(-1);
  if (last?.role !== 'assistant') throw new Error(`the last message is not the model's: ${JSON.stringify(last)}`);
  return last.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
}

/** A client below the typed layer, to send answers a well-behaved client never would. */
export async function rawClient(fixture: TestSessionHost, transport: Transport): Promise<RawChannel> {
  const factory =
    transport === 'loopback'
      ? loopbackFactory(fixture.host.rpc)
      : webSocketFactory({ socketPath: join(fixture.directory, 'session.sock') });
  const raw = await openRawChannel(factory, { token: TEST_SESSION_TOKEN });
  onTestFinished(() => raw.close());
  return raw;
}

/** A presentation as the question TUI facet is one: it shows questions, and answers each as `respond` says. */
export interface QuestionClient {
  readonly client: RpcClient;
  readonly views: ViewsService;
  readonly replica: ViewReplica;
  /** Every question shown to it, in order. */
  readonly asked: QuestionRequest[];
  /** The open question views it sees. */
  open(): string[];
}

/**
 * Connects a client that declares the question component and answers every question view it is shown with
 * `respond` (null: leaves it open). Failed answers (refused by the session) are kept in `refused`.
 */
export async function questionClient(
  fixture: TestSessionHost,
  respond: (request: QuestionRequest) => QuestionResponse | null,
  refused: Error[] = [],
): Promise<QuestionClient> {
  const client = await fixture.connect();
  const views = await client.use(Views);
  const replica = new ViewReplica();
  const asked: QuestionRequest[] = [];
  const seen = new Set<string>();
  const update = () => {
    for (const record of replica.list()) {
      if (record.component !== QuestionView.component || seen.has(record.viewId)) continue;
      seen.add(record.viewId);
      const request = record.state as unknown as QuestionRequest;
      asked.push(request);
      const response = respond(request);
      if (response !== null)
        views.message(record.viewId, response, BACKGROUND_CONTEXT).catch((error: Error) => refused.push(error));
    }
  };
  views.open.subscribe((records) => {
    replica.applyOpen(records);
    update();
  });
  views.deltas.subscribe((delta) => {
    replica.applyDelta(delta);
    update();
  });
  await views.show([QuestionView.component], BACKGROUND_CONTEXT);
  return {
    client,
    views,
    replica,
    asked,
    open: () =>
      replica
        .list()
        .filter((record) => record.component === QuestionView.component)
        .map((record) => record.viewId),
  };
}
