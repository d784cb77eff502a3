import { describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT, withAbortSignal } from '@pi/context';
import { InteractionBroker, defineInteraction, type InteractionFrame } from '@pi/remote';
import { z } from 'zod';
import { unattendedInteractions } from './unattended-interactions';

/** A question-like interaction, as a plugin's contract would define it. */
const Ask = defineInteraction<{ question: string }, { answer: string }>('ask', {
  request: z.object({ question: z.string() }),
  response: z.object({ answer: z.string() }),
});

/** The real broker behind a facet's interactions, with connection callbacks the test drives. */
function attachedBroker() {
  const broker = new InteractionBroker();
  const connect: Array<(id: string) => void> = [];
  const context = {
    interactions: { request: broker.request.bind(broker) },
    onClientConnect: (callback: (id: string) => void) => (connect.push(callback), () => undefined),
    onClientDisconnect: () => () => undefined,
  };
  /** A client connects and, like a presentation, declares a handler that answers every request. */
  const presentation = (clientId: string, declare = true) => {
    connect.forEach((callback) => callback(clientId));
    if (!declare) return;
    const send = (frame: InteractionFrame) => {
      if (frame.kind === 'request')
        broker.reply(clientId, { requestId: frame.requestId, response: { answer: clientId } });
    };
    broker.serve(clientId, ['ask'], send);
  };
  return { context, presentation };
}

describe('the unattended-session policy', () => {
  it('with a client connected but no handler, fails with no_handler at once', async () => {
    const { context, presentation } = attachedBroker();
    const interactions = unattendedInteractions(context, 10_000);
    presentation('c1', false);
    await expect(interactions.request(Ask, { question: '?' }, BACKGROUND_CONTEXT)).rejects.toMatchObject({
      code: 'no_handler',
    });
  });

  it('with none connected, fails closed with timeout after the wait', async () => {
    const { context } = attachedBroker();
    const interactions = unattendedInteractions(context, 30);
    await expect(interactions.request(Ask, { question: '?' }, BACKGROUND_CONTEXT)).rejects.toMatchObject({
      code: 'timeout',
      message: expect.stringContaining('the session is unattended'),
    });
  });

  it('asks a handler declared before the facet saw anyone connect (a reload) at once', async () => {
    const { context, presentation } = attachedBroker();
    presentation('c0');
    const interactions = unattendedInteractions(context, 10_000);
    await expect(interactions.request(Ask, { question: '?' }, BACKGROUND_CONTEXT)).resolves.toEqual({ answer: 'c0' });
  });

  it('asks a presentation that attaches and declares its handler during the wait', async () => {
    const { context, presentation } = attachedBroker();
    const interactions = unattendedInteractions(context, 10_000);
    const answer = interactions.request(Ask, { question: '?' }, BACKGROUND_CONTEXT);
    setTimeout(() => presentation('c1'), 10);
    await expect(answer).resolves.toEqual({ answer: 'c1' });
  });

  it('the run’s cancellation ends the wait with cancelled', async () => {
    const { context } = attachedBroker();
    const interactions = unattendedInteractions(context, 10_000);
    const controller = new AbortController();
    const answer = interactions.request(Ask, { question: '?' }, withAbortSignal(controller.signal, BACKGROUND_CONTEXT));
    controller.abort();
    await expect(answer).rejects.toMatchObject({ code: 'cancelled' });
  });
});
