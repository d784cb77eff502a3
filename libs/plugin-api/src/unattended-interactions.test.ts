import { describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT, withAbortSignal } from '@pi/context';
import type { ProvidingInteractions } from './providing-context';
import { RemoteError, defineInteraction } from '@pi/remote';
import { z } from 'zod';
import { unattendedInteractions } from './unattended-interactions';

interface QuestionRequest {
  question: string;
  options: Array<{ label: string; description: string | null }>;
}
/** A question-like interaction, as a plugin's contract would define it. */
const QuestionInteraction = defineInteraction<QuestionRequest, { outcome: 'cancelled' }>('question', {
  request: z.object({
    question: z.string(),
    options: z.array(z.object({ label: z.string(), description: z.string().nullable() })),
  }),
  response: z.object({ outcome: z.literal('cancelled') }),
});
const ASK: QuestionRequest = { question: 'Which?', options: [{ label: 'a', description: null }] };

/** Connection callbacks the test drives, over a broker stand-in that answers once `handled` is set. */
function fakeContext() {
  const connect: Array<(id: string) => void> = [];
  const disconnect: Array<(id: string) => void> = [];
  const state = { handled: false, asked: 0 };
  const interactions: ProvidingInteractions = {
    async request() {
      state.asked += 1;
      if (!state.handled) throw new RemoteError('no_handler', 'none');
      return { outcome: 'selected', index: 0 } as never;
    },
  };
  return {
    state,
    context: {
      interactions,
      onClientConnect: (callback: (id: string) => void) => (connect.push(callback), () => undefined),
      onClientDisconnect: (callback: (id: string) => void) => (disconnect.push(callback), () => undefined),
    },
    attach: (id: string) => connect.forEach((callback) => callback(id)),
    detach: (id: string) => disconnect.forEach((callback) => callback(id)),
  };
}

describe('the unattended-session policy', () => {
  it('with a client connected, asks at once and passes a no_handler straight through', async () => {
    const fake = fakeContext();
    const interactions = unattendedInteractions(fake.context, 10_000);
    fake.attach('c1');
    const failure = interactions.request(QuestionInteraction, ASK, BACKGROUND_CONTEXT);
    await expect(failure).rejects.toMatchObject({ code: 'no_handler' });
    expect(fake.state.asked).toBe(1);
  });

  it('with none connected (and so no handler), fails closed with timeout after the wait', async () => {
    const fake = fakeContext();
    const interactions = unattendedInteractions(fake.context, 30);
    fake.attach('c1');
    fake.detach('c1');
    const failure = interactions.request(QuestionInteraction, ASK, BACKGROUND_CONTEXT);
    await expect(failure).rejects.toMatchObject({ code: 'timeout', message: expect.stringContaining('unattended') });
    expect(fake.state.asked).toBe(1);
  });

  it('asks a handler the facet never saw connect (one attached before a reload) at once', async () => {
    const fake = fakeContext();
    fake.state.handled = true;
    const answer = unattendedInteractions(fake.context, 10_000).request(QuestionInteraction, ASK, BACKGROUND_CONTEXT);
    await expect(answer).resolves.toEqual({ outcome: 'selected', index: 0 });
    expect(fake.state.asked).toBe(1);
  });

  it('asks a client that attaches during the wait, retrying until its handler is declared', async () => {
    const fake = fakeContext();
    const answer = unattendedInteractions(fake.context, 10_000).request(QuestionInteraction, ASK, BACKGROUND_CONTEXT);
    fake.attach('late');
    setTimeout(() => (fake.state.handled = true), 60);
    await expect(answer).resolves.toEqual({ outcome: 'selected', index: 0 });
    expect(fake.state.asked).toBeGreaterThan(1);
  });

  it('the run’s cancellation ends the wait with cancelled', async () => {
    const fake = fakeContext();
    const controller = new AbortController();
    const context = withAbortSignal(controller.signal, BACKGROUND_CONTEXT);
    const failure = unattendedInteractions(fake.context, 10_000).request(QuestionInteraction, ASK, context);
    controller.abort();
    await expect(failure).rejects.toMatchObject({ code: 'cancelled' });
  });
});
