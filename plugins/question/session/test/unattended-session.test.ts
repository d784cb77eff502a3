import { describe, expect, it } from 'vitest';
import { QuestionView } from '@pi/question';
import {
  ASK_COLOR,
  durableToolResult,
  finalAnswer,
  questionClient,
  startQuestionHost,
  type Transport,
  viewsFileNames,
} from './question-host';

describe.each<Transport>(['loopback', 'websocket'])('an unattended session over %s', (transport) => {
  it('with no client connected, a question fails closed after the configured wait and the run settles', async () => {
    const host = await startQuestionHost(transport, { unattendedTimeoutMs: 150 });

    const started = performance.now();
    const { outcome } = await host.ask(ASK_COLOR);
    const waited = performance.now() - started;

    expect(outcome).toEqual({ outcome: 'completed', error: null });
    expect(waited).toBeGreaterThanOrEqual(140);
    const result = await durableToolResult(host.fixture);
    expect(result).toMatchObject({ isError: true, details: { answer: null } });
    expect(result.content[0]?.text).toContain('(timeout)');
    expect(await finalAnswer(host.fixture)).toContain('the user did not answer in time');
  });

  it('a presentation that attaches during the wait is shown the question, and its answer is the result', async () => {
    const host = await startQuestionHost(transport, { unattendedTimeoutMs: 10_000 });
    const operationId = await host.start(ASK_COLOR);
    // The wait begins when the tool asks, not when the run starts: a client attached before the question (and not
    // yet saying what it shows) would be one that shows no questions, answered no_handler at once.
    await viewsFileNames(host.fixture, QuestionView.component);

    await questionClient(host.fixture, () => ({ outcome: 'selected', index: 2 }));

    expect(await host.lane.settled(operationId)).toEqual({ outcome: 'completed', error: null });
    expect(await durableToolResult(host.fixture)).toMatchObject({ isError: false, details: { answer: 'blue' } });
  });
});
