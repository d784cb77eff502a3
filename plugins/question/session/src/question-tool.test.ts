import { describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import type { QuestionRequest, QuestionResponse } from '@pi/question';
import { RemoteError } from '@pi/remote';
import type { Ask } from './ask-on-view';
import { questionTool } from './question-tool';

const colors: QuestionRequest = {
  question: 'Which color do you like?',
  options: [
    { label: 'red', description: null },
    { label: 'green', description: 'like grass' },
  ],
};

/** An asking stand-in that answers (or fails) once and records what it was asked. */
function answering(outcome: QuestionResponse | RemoteError) {
  const asked: QuestionRequest[] = [];
  const ask: Ask = async (request) => {
    asked.push(request);
    if (outcome instanceof RemoteError) throw outcome;
    return outcome;
  };
  return { ask, asked };
}

async function run(outcome: QuestionResponse | RemoteError, request: QuestionRequest = colors) {
  const { ask, asked } = answering(outcome);
  const result = await questionTool(ask).execute(request, BACKGROUND_CONTEXT);
  return { result, asked };
}

describe('the question tool', () => {
  it('asks the request and records the selected option', async () => {
    const { result, asked } = await run({ outcome: 'selected', index: 1 });
    expect(asked).toEqual([colors]);
    expect(result).toEqual({
      content: [{ type: 'text', text: 'User selected: 2. green' }],
      details: { question: 'Which color do you like?', options: ['red', 'green'], answer: 'green', wasCustom: false },
    });
  });

  it('records a custom answer as custom', async () => {
    const { result } = await run({ outcome: 'custom', answer: 'teal' });
    expect(result.content[0]?.text).toBe('User wrote: teal');
    expect(result.details).toMatchObject({ answer: 'teal', wasCustom: true });
    expect(result.isError).toBeUndefined();
  });

  it('records a cancellation by the user as no answer, not as an error', async () => {
    const { result } = await run({ outcome: 'cancelled' });
    expect(result.content[0]?.text).toBe('User cancelled the question');
    expect(result.details.answer).toBeNull();
    expect(result.isError).toBeUndefined();
  });

  it('does not ask at all when there are no options', async () => {
    const { result, asked } = await run({ outcome: 'cancelled' }, { question: 'Anything?', options: [] });
    expect(asked).toEqual([]);
    expect(result.content[0]?.text).toBe('No options provided');
  });

  it.each([
    ['no_handler', 'no connected client can answer questions'],
    ['timeout', 'the user did not answer in time'],
    ['disconnected', 'the client asking the user disconnected'],
    ['invalid_result', 'the client sent a malformed answer'],
    ['cancelled', 'the question was cancelled'],
  ])('fails closed on %s with an error result that says so', async (code, reason) => {
    const { result } = await run(new RemoteError(code, 'whatever the broker said'));
    expect(result.isError).toBe(true);
    expect(result.details.answer).toBeNull();
    expect(result.content[0]?.text).toBe(`The question was not answered: ${reason} (${code})`);
  });

  it('fails closed when the answer selects an option that does not exist', async () => {
    const { result } = await run({ outcome: 'selected', index: 2 });
    expect(result.isError).toBe(true);
    expect(result.details.answer).toBeNull();
    expect(result.content[0]?.text).toContain('(invalid_result)');
  });

  it('fails closed, without leaking it, on an unexpected failure', async () => {
    const ask: Ask = () => Promise.reject(new Error('secret path /home/x'));
    const result = await questionTool(ask).execute(colors, BACKGROUND_CONTEXT);
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toBe('The question was not answered: The question could not be asked (internal)');
  });

  it('lets the model leave out option descriptions', () => {
    const parsed = questionTool(answering({ outcome: 'cancelled' }).ask).parameters.parse({
      question: 'Q?',
      options: [{ label: 'a' }],
    });
    expect(parsed).toEqual({ question: 'Q?', options: [{ label: 'a', description: null }] });
  });

  it('runs sequentially, under its contract name', () => {
    const tool = questionTool(answering({ outcome: 'cancelled' }).ask);
    expect(tool).toMatchObject({ name: 'question', executionMode: 'sequential' });
  });
});
