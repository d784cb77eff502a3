import { readFile } from 'node:fs/promises';
import { accountsSessionFacet, pluginId as accountsId } from '@pi/accounts-session';
import { accountsTuiFacet } from '@pi/accounts-tui';
import type { AgentMessage, SessionEntry, ToolResultMessage } from '@pi/agent';
import { chatSessionFacet, pluginId as chatId } from '@pi/chat-session';
import { chatTuiFacet } from '@pi/chat-tui';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { startTestSessionHost, type TestSessionHost } from '@pi/host-session/testing';
import { startTestTuiHost, type TestTuiHost } from '@pi/host-tui/testing';
import type { AgentLanePluginView } from '@pi/plugin-api';
import { createProvidersBuiltinFacet, pluginId as providersId } from '@pi/providers-builtin-session';
import { providersBuiltinTuiFacet } from '@pi/providers-builtin-tui';
import { pluginId as questionId, questionSessionFacet } from '@pi/question-session';
import { questionTuiFacet } from '@pi/question-tui';
import { type TransportKind } from '@pi/test-support';

/**
 * A session host running the built-in providers and the question tool (and chat and accounts, when asked), and a
 * TUI running their TUI facets, in the built-in manifest's order.
 */
export interface SessionAndTui {
  readonly session: TestSessionHost;
  readonly tui: TestTuiHost;
  /** The session's main lane, prompted directly (the chat plugin is not part of these tests). */
  readonly lane: AgentLanePluginView;
  /** Starts a run; resolves with its operation id. */
  prompt(text: string): Promise<string>;
  /** Waits until the painted screen contains `text`. */
  shows(text: string): Promise<void>;
  /** Waits until the painted screen no longer contains `text`. */
  hides(text: string): Promise<void>;
  close(): Promise<void>;
}

export async function startSessionAndTui(
  transport: TransportKind,
  options: { readonly chat?: boolean; readonly accounts?: boolean } = {},
): Promise<SessionAndTui> {
  const chat = options.chat === true;
  const accounts = options.accounts === true;
  let lane: AgentLanePluginView | undefined;
  const session = await startTestSessionHost({
    transport,
    facets: [
      ...(accounts ? [{ id: accountsId, facet: accountsSessionFacet }] : []),
      { id: providersId, facet: createProvidersBuiltinFacet({ env: {}, watchDebounceMs: 10 }) },
      ...(chat ? [{ id: chatId, facet: chatSessionFacet }] : []),
      { id: questionId, facet: questionSessionFacet },
      { id: '@test/driver', facet: (context) => void (lane = context.agent.main) },
    ],
  });
  if (lane === undefined) throw new Error('the driver facet did not run');
  const driven = lane;
  const tui = await startTestTuiHost({
    facets: {
      ...(accounts ? { [accountsId]: accountsTuiFacet } : {}),
      [providersId]: providersBuiltinTuiFacet,
      ...(chat ? { [chatId]: chatTuiFacet } : {}),
      [questionId]: questionTuiFacet,
    },
    client: await session.connect(),
  });
  return {
    session,
    tui,
    lane: driven,
    async prompt(text) {
      const accepted = await driven.prompt([{ role: 'user', content: [{ type: 'text', text }] }], BACKGROUND_CONTEXT);
      if (accepted.isErr()) throw new Error(`prompt rejected: ${accepted.error.message}`);
      return accepted.value.operationId;
    },
    shows: (text) => shows(tui, text),
    hides: (text) => hides(tui, text),
    async close() {
      await tui.stop();
      await session.close();
    },
  };
}

/** The durable messages of the session file. */
export async function durableMessages(session: TestSessionHost): Promise<AgentMessage[]> {
  const lines = (await readFile(session.sessionFile, 'utf8')).split('\n').filter((line) => line !== '');
  return lines
    .slice(1)
    .map((line) => JSON.parse(line) as SessionEntry)
    .flatMap((entry) => (entry.kind === 'message' ? [entry.message] : []));
}

/** The one durable tool result of the session. */
export async function durableToolResult(session: TestSessionHost): Promise<ToolResultMessage> {
  const result = (await durableMessages(session)).find(
    (message): message is ToolResultMessage => message.role === 'tool',
  );
  if (result === undefined) throw new Error('no tool result in the session file');
  return result;
}

/** The text of the model's last answer in the session file. */
export async function finalAnswer(session: TestSessionHost): Promise<string> {
  const last = (await durableMessages(session)).at(-1);
  if (last?.role !== 'assistant') throw new Error(`the last message is not the model's: ${JSON.stringify(last)}`);
  return last.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
}

/** Waits until the painted screen satisfies `test`. */
export async function painted(tui: TestTuiHost, test: (screen: string) => boolean): Promise<void> {
  await tui.waitForScreen(test);
}

/** Waits until the painted screen contains `text`. */
export const shows = (tui: TestTuiHost, text: string) => painted(tui, (screen) => screen.includes(text));

/** Waits until the painted screen no longer contains `text`. */
export const hides = (tui: TestTuiHost, text: string) => painted(tui, (screen) => !screen.includes(text));
