import { describe, expect, it } from 'vitest';
import type { ToolResultMessage } from '@pi/agent';
import { eventually, messageOnceTaken } from '@pi/test-support';
import {
  ASK_COLOR,
  durableMessages,
  finalAnswer,
  questionClient,
  restartQuestionHost,
  startQuestionHost,
  type QuestionHost,
  type Transport,
  viewsFileNames,
} from './question-host';

/** Asks, lets the question reach a client and the views file, and "kills" the session: returns the restarted one. */
async function crashWhileAsking(transport: Transport, withQuestion = true) {
  const host = await startQuestionHost(transport);
  const asked = await questionClient(host.fixture, () => null);
  const operationId = await host.start(ASK_COLOR);
  await eventually(() => asked.open().length === 1);
  const [viewId = ''] = asked.open();
  // What a restart reads of the view: it is written beside the session file, replaced whole.
  await viewsFileNames(host.fixture, viewId);
  const restarted = await restartQuestionHost(host, transport, { withQuestion });
  return { operationId, viewId, restarted };
}

const toolResults = async (host: QuestionHost) =>
  (await durableMessages(host.fixture)).filter((message): message is ToolResultMessage => message.role === 'tool');

describe.each<Transport>(['loopback', 'websocket'])('a question the session process died on, over %s', (transport) => {
  it('is asked again on the same view after the restart, and the answer goes on with the run, once', async () => {
    const { operationId, viewId, restarted } = await crashWhileAsking(transport);
    expect(restarted.lane.running).toBe(operationId);

    const client = await questionClient(restarted.fixture, () => null);
    await eventually(() => client.open().length === 1);
    expect(client.open()).toEqual([viewId]);
    await messageOnceTaken(client.views, viewId, { outcome: 'selected', index: 2 });

    expect(await restarted.lane.settled(operationId)).toEqual({ outcome: 'completed', error: null });
    const results = await toolResults(restarted);
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ toolName: 'question', isError: false, details: { answer: 'blue' } });
    expect((await durableMessages(restarted.fixture)).map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(await finalAnswer(restarted.fixture)).toContain('User selected: 3. blue');
    await eventually(() => client.open().length === 0);
  });

  it('cancelled by the user after the restart, the cancel is the result and the run goes on', async () => {
    const { operationId, viewId, restarted } = await crashWhileAsking(transport);
    const client = await questionClient(restarted.fixture, () => null);
    await eventually(() => client.open().length === 1);

    await messageOnceTaken(client.views, viewId, { outcome: 'cancelled' });

    expect(await restarted.lane.settled(operationId)).toEqual({ outcome: 'completed', error: null });
    expect((await toolResults(restarted))[0]?.content[0]?.text).toBe('User cancelled the question');
  });

  it('restarted without the question plugin, the run settles as interrupted and the question is taken away', async () => {
    const { operationId, restarted } = await crashWhileAsking(transport, false);

    expect(await restarted.lane.settled(operationId)).toEqual({ outcome: 'failed', error: 'interrupted' });
    const [result] = await toolResults(restarted);
    expect(result).toMatchObject({ toolName: 'question', isError: true });
    const client = await questionClient(restarted.fixture, () => null);
    expect(client.open()).toEqual([]);
  });
});
