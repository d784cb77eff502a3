import { describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import type { QuestionRequest } from '@pi/question';
import { eventually, remoteErrorOf } from '@pi/test-support';
import {
  ASK_COLOR,
  durableToolResult,
  finalAnswer,
  questionClient,
  startQuestionHost,
  type Transport,
} from './question-host';

const COLORS: QuestionRequest = {
  question: 'Which color I like?',
  options: [
    { label: 'red', description: null },
    { label: 'green', description: null },
    { label: 'blue', description: null },
  ],
};

describe.each<Transport>(['loopback', 'websocket'])('the question tool over %s', (transport) => {
  it('shows the question to the attached client, records its answer durably, and the model quotes it', async () => {
    const host = await startQuestionHost(transport);
    const client = await questionClient(host.fixture, () => ({ outcome: 'selected', index: 1 }));

    const { outcome } = await host.ask(ASK_COLOR);

    expect(outcome).toEqual({ outcome: 'completed', error: null });
    expect(client.asked).toEqual([COLORS]);
    const result = await durableToolResult(host.fixture);
    expect(result).toMatchObject({
      toolName: 'question',
      isError: false,
      content: [{ type: 'text', text: 'User selected: 2. green' }],
      details: {
        question: 'Which color I like?',
        options: ['red', 'green', 'blue'],
        answer: 'green',
        wasCustom: false,
      },
    });
    expect(await finalAnswer(host.fixture)).toContain('User selected: 2. green');
    await eventually(() => client.open().length === 0);
  });

  it('records an answer the user typed as custom', async () => {
    const host = await startQuestionHost(transport);
    await questionClient(host.fixture, () => ({ outcome: 'custom', answer: 'teal' }));

    await host.ask(ASK_COLOR);

    expect((await durableToolResult(host.fixture)).details).toMatchObject({ answer: 'teal', wasCustom: true });
    expect(await finalAnswer(host.fixture)).toContain('User wrote: teal');
  });

  it('with clients attached but none showing questions, the tool result says so at once and the run settles', async () => {
    const host = await startQuestionHost(transport, { timeoutMs: 600_000, unattendedTimeoutMs: 600_000 });
    await host.fixture.connect();

    const { outcome } = await host.ask(ASK_COLOR);

    expect(outcome.outcome).toBe('completed');
    const result = await durableToolResult(host.fixture);
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ answer: null });
    expect(result.content[0]?.text).toContain('(no_handler)');
    expect(await finalAnswer(host.fixture)).toContain('no connected client can answer questions');
  });

  it('refuses an answer outside the contract with a clear error to its client, and keeps the question open', async () => {
    const host = await startQuestionHost(transport);
    const refused: Error[] = [];
    const client = await questionClient(
      host.fixture,
      () => ({ outcome: 'selected', index: 'green' }) as never,
      refused,
    );

    const operationId = await host.start(ASK_COLOR);
    await eventually(() => refused.length === 1);
    expect(refused[0]).toMatchObject({ code: 'invalid_argument' });
    expect(refused[0]?.message).toMatch(/does not fit view "question" at index/);

    const [viewId] = client.open();
    await client.views.message(viewId ?? '', { outcome: 'selected', index: 0 }, BACKGROUND_CONTEXT);
    await host.lane.settled(operationId);
    expect((await durableToolResult(host.fixture)).details).toMatchObject({ answer: 'red' });
  });

  it('fails closed when the answer picks an option that was not offered', async () => {
    const host = await startQuestionHost(transport);
    await questionClient(host.fixture, () => ({ outcome: 'selected', index: 7 }));

    await host.ask(ASK_COLOR);

    const result = await durableToolResult(host.fixture);
    expect(result).toMatchObject({ isError: true, details: { answer: null } });
    expect(result.content[0]?.text).toContain('(invalid_result)');
  });

  it('fails closed on the configured timeout and takes the question from the client', async () => {
    const host = await startQuestionHost(transport, { timeoutMs: 50 });
    const client = await questionClient(host.fixture, () => null);

    const { outcome } = await host.ask(ASK_COLOR);

    expect(outcome.outcome).toBe('completed');
    const result = await durableToolResult(host.fixture);
    expect(result).toMatchObject({ isError: true, details: { answer: null } });
    expect(result.content[0]?.text).toContain('(timeout)');
    expect(client.asked).toHaveLength(1);
    await eventually(() => client.open().length === 0);
  });

  it('keeps waiting when the asked client goes away, and a client that attaches again answers it', async () => {
    const host = await startQuestionHost(transport);
    const first = await questionClient(host.fixture, () => null);
    const operationId = await host.start(ASK_COLOR);
    await eventually(() => first.asked.length === 1);
    first.client.close();

    const second = await questionClient(host.fixture, () => ({ outcome: 'selected', index: 2 }));

    expect(await host.lane.settled(operationId)).toEqual({ outcome: 'completed', error: null });
    expect(second.asked).toEqual([COLORS]);
    expect((await durableToolResult(host.fixture)).details).toMatchObject({ answer: 'blue' });
  });

  it('aborting the run while the question is open takes it from the client and settles the run as aborted', async () => {
    const host = await startQuestionHost(transport);
    const client = await questionClient(host.fixture, () => null);

    const operationId = await host.start(ASK_COLOR);
    await eventually(() => client.open().length === 1);
    const aborted = await host.lane.requestAbort(operationId, BACKGROUND_CONTEXT);

    expect(aborted.isOk()).toBe(true);
    expect(await host.lane.settled(operationId)).toEqual({ outcome: 'aborted', error: null });
    expect((await durableToolResult(host.fixture)).content[0]?.text).toContain('(cancelled)');
    await eventually(() => client.open().length === 0);
  });

  it('the first answer of two attached clients is the one recorded, and the other can no longer answer', async () => {
    const host = await startQuestionHost(transport);
    const first = await questionClient(host.fixture, () => ({ outcome: 'selected', index: 0 }));
    const second = await questionClient(host.fixture, () => null);

    await host.ask(ASK_COLOR);

    expect((await durableToolResult(host.fixture)).details).toMatchObject({ answer: 'red' });
    expect(first.asked).toHaveLength(1);
    expect(second.asked).toHaveLength(1);
    const late = await remoteErrorOf(
      second.views.message('@pi/question:gone', { outcome: 'cancelled' }, BACKGROUND_CONTEXT),
    );
    expect(late.code).toBe('unknown_view');
  });
});
