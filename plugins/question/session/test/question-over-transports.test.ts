import { describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT, type Context } from '@pi/context';
import { QuestionInteraction, type QuestionRequest, type QuestionResponse } from '@pi/question';
import { eventually } from '@pi/test-support';
import {
  ASK_COLOR,
  durableToolResult,
  finalAnswer,
  rawClient,
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

function answerWith(response: QuestionResponse) {
  return async (): Promise<QuestionResponse> => response;
}

/** A handler that never answers on its own: it ends only when the host cancels the request. */
function untilCancelled(seen: { cancelled: boolean }) {
  return (_request: QuestionRequest, context: Context) =>
    new Promise<never>((_resolve, reject) => {
      context.abortSignal?.addEventListener('abort', () => {
        seen.cancelled = true;
        reject(new Error('cancelled'));
      });
    });
}

describe.each<Transport>(['loopback', 'websocket'])('the question tool over %s', (transport) => {
  it('asks the connected client, records its answer durably, and the model quotes it', async () => {
    const host = await startQuestionHost(transport);
    const client = await host.fixture.connect();
    const asked: QuestionRequest[] = [];
    client.handle(QuestionInteraction, async (request): Promise<QuestionResponse> => {
      asked.push(request);
      return { outcome: 'selected', index: 1 };
    });

    const { outcome } = await host.ask(ASK_COLOR);

    expect(outcome).toEqual({ outcome: 'completed', error: null });
    expect(asked).toEqual([COLORS]);
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
  });

  it('records an answer the user typed as custom', async () => {
    const host = await startQuestionHost(transport);
    const client = await host.fixture.connect();
    client.handle(QuestionInteraction, answerWith({ outcome: 'custom', answer: 'teal' }));

    await host.ask(ASK_COLOR);

    expect((await durableToolResult(host.fixture)).details).toMatchObject({ answer: 'teal', wasCustom: true });
    expect(await finalAnswer(host.fixture)).toContain('User wrote: teal');
  });

  it('with no client handling questions, the tool result says so and the run settles', async () => {
    const host = await startQuestionHost(transport);
    await host.fixture.connect();

    const { outcome } = await host.ask(ASK_COLOR);

    expect(outcome.outcome).toBe('completed');
    const result = await durableToolResult(host.fixture);
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ answer: null });
    expect(result.content[0]?.text).toContain('(no_handler)');
    expect(await finalAnswer(host.fixture)).toContain('no connected client can answer questions');
  });

  it('fails closed when the client’s handler answers outside the contract', async () => {
    const host = await startQuestionHost(transport);
    const client = await host.fixture.connect();
    client.handle(QuestionInteraction, async () => ({ outcome: 'selected', index: 'green' }) as never);

    await host.ask(ASK_COLOR);

    const result = await durableToolResult(host.fixture);
    expect(result).toMatchObject({ isError: true, details: { answer: null } });
    expect(result.content[0]?.text).toContain('(invalid_result)');
  });

  it('fails closed when a misbehaving client puts a malformed answer on the wire', async () => {
    const host = await startQuestionHost(transport);
    const raw = await rawClient(host.fixture, transport);
    raw.channel.serveInteractions([QuestionInteraction.id], (frame) => {
      if (frame.kind === 'request')
        void raw.channel.reply({
          requestId: frame.requestId,
          response: { outcome: 'selected', index: -3, extra: true },
        });
    });

    await host.ask(ASK_COLOR);

    const result = await durableToolResult(host.fixture);
    expect(result).toMatchObject({ isError: true, details: { answer: null } });
    expect(result.content[0]?.text).toContain('(invalid_result)');
  });

  it('fails closed when the answer picks an option that was not offered', async () => {
    const host = await startQuestionHost(transport);
    const client = await host.fixture.connect();
    client.handle(QuestionInteraction, answerWith({ outcome: 'selected', index: 7 }));

    await host.ask(ASK_COLOR);

    const result = await durableToolResult(host.fixture);
    expect(result).toMatchObject({ isError: true, details: { answer: null } });
    expect(result.content[0]?.text).toContain('(invalid_result)');
  });

  it('fails closed on the configured timeout and cancels the dialog it gave up on', async () => {
    const host = await startQuestionHost(transport, { timeoutMs: 50 });
    const client = await host.fixture.connect();
    const seen = { cancelled: false };
    client.handle(QuestionInteraction, untilCancelled(seen));

    const { outcome } = await host.ask(ASK_COLOR);

    expect(outcome.outcome).toBe('completed');
    const result = await durableToolResult(host.fixture);
    expect(result).toMatchObject({ isError: true, details: { answer: null } });
    expect(result.content[0]?.text).toContain('(timeout)');
    await eventually(() => seen.cancelled);
  });

  it('fails closed when the client disconnects while the user is being asked', async () => {
    const host = await startQuestionHost(transport);
    const client = await host.fixture.connect();
    client.handle(QuestionInteraction, () => {
      client.close();
      return new Promise<never>(() => undefined);
    });

    const { outcome } = await host.ask(ASK_COLOR);

    expect(outcome.outcome).toBe('completed');
    const result = await durableToolResult(host.fixture);
    expect(result).toMatchObject({ isError: true, details: { answer: null } });
    expect(result.content[0]?.text).toContain('(disconnected)');
  });

  it('aborting the run while the question is open cancels the dialog and settles the run as aborted', async () => {
    const host = await startQuestionHost(transport);
    const client = await host.fixture.connect();
    const seen = { cancelled: false };
    let opened = (): void => undefined;
    const questionOpen = new Promise<void>((resolve) => (opened = resolve));
    const waitForCancel = untilCancelled(seen);
    client.handle(QuestionInteraction, (request, context) => {
      opened();
      return waitForCancel(request, context);
    });

    const operationId = await host.start(ASK_COLOR);
    await questionOpen;
    const aborted = await host.lane.requestAbort(operationId, BACKGROUND_CONTEXT);

    expect(aborted.isOk()).toBe(true);
    expect(await host.lane.settled(operationId)).toEqual({ outcome: 'aborted', error: null });
    expect((await durableToolResult(host.fixture)).content[0]?.text).toContain('(cancelled)');
    await eventually(() => seen.cancelled);
  });

  it('the most recently connected handler is the one asked', async () => {
    const host = await startQuestionHost(transport);
    const first = await host.fixture.connect();
    const second = await host.fixture.connect();
    first.handle(QuestionInteraction, answerWith({ outcome: 'selected', index: 0 }));
    second.handle(QuestionInteraction, answerWith({ outcome: 'selected', index: 2 }));

    await host.ask(ASK_COLOR);

    expect((await durableToolResult(host.fixture)).details).toMatchObject({ answer: 'blue' });
  });
});
