import { afterEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { startTestSessionHost, type TestSessionHost } from '@pi/host-session/testing';
import { startTestTuiHost, type TestTuiHost } from '@pi/host-tui/testing';
import type { AgentLanePluginView } from '@pi/plugin-api';
import { createProvidersBuiltinFacet, pluginId as providersId } from '@pi/providers-builtin-session';
import { pluginId as questionId, questionSessionFacet } from '@pi/question-session';
import { questionTuiFacet } from '@pi/question-tui';
import { TRANSPORTS, type TransportKind } from '@pi/test-support';
import { pluginId as todoId, todoSessionFacet } from '@pi/todo-session';
import { todoTuiFacet } from '@pi/todo-tui';
import { durableToolResult, hides, shows } from './session-and-tui';

const QUESTION = 'Which color I like?';
const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

/** A session with the question and todo plugins (the offline model), prompted on its main lane directly. */
async function startSession(transport: TransportKind) {
  let lane: AgentLanePluginView | undefined;
  const session = await startTestSessionHost({
    transport,
    facets: [
      { id: providersId, facet: createProvidersBuiltinFacet({ env: {}, watchDebounceMs: 10 }) },
      { id: questionId, facet: questionSessionFacet },
      { id: todoId, facet: todoSessionFacet },
      { id: '@test/driver', facet: (context) => void (lane = context.agent.main) },
    ],
  });
  stops.push(() => session.close());
  const driven = lane as AgentLanePluginView;
  const start = async (text: string) => {
    const accepted = await driven.prompt([{ role: 'user', content: [{ type: 'text', text }] }], BACKGROUND_CONTEXT);
    if (accepted.isErr()) throw new Error(accepted.error.message);
    return accepted.value.operationId;
  };
  return { session, lane: driven, start };
}

/** A TUI with both plugins' facets on a connection of its own; `leave` stops it and closes the connection. */
async function attachTui(session: TestSessionHost): Promise<TestTuiHost & { leave(): Promise<void> }> {
  const client = await session.connect();
  const tui = await startTestTuiHost({ facets: { [questionId]: questionTuiFacet, [todoId]: todoTuiFacet }, client });
  stops.push(() => tui.stop());
  return Object.assign(tui, {
    async leave() {
      await tui.stop();
      client.close();
    },
  });
}

describe.each(TRANSPORTS)('views between a session and its TUIs over %s', (transport) => {
  it('the todo panel follows the tool live, and a TUI that attaches later shows it at once', async () => {
    const { session, lane, start } = await startSession(transport);
    const first = await attachTui(session);
    await lane.settled(await start('/tool todo {"action":"add","text":"write the parser"}'));
    await shows(first, 'Todo · 0/1 done');

    const late = await attachTui(session);
    await shows(late, '○ 1. write the parser');
    await lane.settled(await start('/tool todo {"action":"done","id":1}'));
    await shows(first, '✓ 1. write the parser');
    await shows(late, 'Todo · 1/1 done');
  });

  it('a question open when its TUI leaves is shown again to a TUI that reattaches, which answers it', async () => {
    const { session, lane, start } = await startSession(transport);
    const first = await attachTui(session);
    const operationId = await start('ask me which color I like: red, green or blue');
    await shows(first, QUESTION);
    await first.leave();

    const again = await attachTui(session);
    await shows(again, QUESTION);
    expect(again.screen()).toContain('2. green');
    await again.type('green\r');
    await hides(again, QUESTION);

    expect(await lane.settled(operationId)).toEqual({ outcome: 'completed', error: null });
    expect(await durableToolResult(session)).toMatchObject({ isError: false, details: { answer: 'green' } });
  });

  it('a question shows in every attached TUI; the first answer closes it in both', async () => {
    const { session, lane, start } = await startSession(transport);
    const one = await attachTui(session);
    const two = await attachTui(session);
    const operationId = await start('ask me which color I like: red, green or blue');
    await shows(one, QUESTION);
    await shows(two, QUESTION);

    await two.type('\x1b');
    await hides(one, QUESTION);
    await hides(two, QUESTION);
    expect(await lane.settled(operationId)).toEqual({ outcome: 'completed', error: null });
    expect((await durableToolResult(session)).content[0]?.text).toBe('User cancelled the question');
  });
});
