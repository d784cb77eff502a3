import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { BACKGROUND_CONTEXT, ROOT_TELEMETRY, withAbortSignal, withTelemetryContext, type Context } from '@pi/context';
import { installInMemoryTelemetry, type InMemoryTelemetry } from '@pi/context/testing';
import { RemoteError } from './errors';
import { InteractionBroker } from './interaction-broker';
import { InteractionHandlers } from './interaction-handlers';
import { ServiceRegistry } from './service-registry';
import { InMemoryChannel } from './testing/in-memory-channel';
import { defineInteraction } from './tokens';

const Pick = defineInteraction<{ options: string[] }, { index: number }>('pick', {
  request: z.object({ options: z.array(z.string()) }),
  response: z.object({ index: z.number().int().min(0) }),
});

let telemetry: InMemoryTelemetry;
let broker: InteractionBroker;
let channel: InMemoryChannel;
let handlers: InteractionHandlers;

beforeEach(() => {
  telemetry = installInMemoryTelemetry();
  broker = new InteractionBroker();
  channel = new InMemoryChannel({ registry: new ServiceRegistry(), broker, clientId: 'tui' });
  handlers = new InteractionHandlers(channel);
});
afterEach(() => {
  handlers.close();
  channel.endpoint.close();
  telemetry.uninstall();
});

function ask(context: Context = BACKGROUND_CONTEXT, options: { timeoutMs?: number } = {}): Promise<{ index: number }> {
  return broker.request(Pick, { options: ['a', 'b'] }, context, options);
}

/** Resolves with the handler's context once it runs, and keeps it waiting until its signal aborts. */
function waitingHandler(): {
  started: Promise<Context>;
  handler: (request: unknown, context: Context) => Promise<{ index: number }>;
} {
  let started: (context: Context) => void = () => undefined;
  const startedPromise = new Promise<Context>((resolve) => (started = resolve));
  return {
    started: startedPromise,
    handler: (_request, context) =>
      new Promise((_resolve, reject) => {
        started(context);
        context.abortSignal?.addEventListener('abort', () => reject(new RemoteError('cancelled', 'stopped')));
      }),
  };
}

describe('InteractionHandlers', () => {
  it('answers a broker request through its handler', async () => {
    const seen: unknown[] = [];
    handlers.handle(Pick, async (request) => {
      seen.push(request);
      return { index: 1 };
    });
    expect(broker.eligibleClients('pick')).toEqual(['tui']);
    await expect(ask()).resolves.toEqual({ index: 1 });
    expect(seen).toEqual([{ options: ['a', 'b'] }]);
  });

  it("runs the handler under a context carrying the request's trace", async () => {
    const contexts: Context[] = [];
    handlers.handle(Pick, async (_request, context) => {
      contexts.push(context);
      return { index: 0 };
    });
    const span = await ROOT_TELEMETRY.startSpan({ name: 'tool.question' }, async (active) => {
      await ask(withTelemetryContext(active, BACKGROUND_CONTEXT));
      return active;
    });
    expect(contexts[0]?.telemetryContext.traceId).toBe(span.traceId);
    expect(contexts[0]?.telemetryContext.spanId).toBe(span.spanId);
  });

  it("aborts the handler's context when the request is cancelled", async () => {
    const waiting = waitingHandler();
    handlers.handle(Pick, waiting.handler);
    const controller = new AbortController();
    const answer = ask(withAbortSignal(controller.signal, BACKGROUND_CONTEXT));
    const context = await waiting.started;
    controller.abort();
    await expect(answer).rejects.toMatchObject({ code: 'cancelled' });
    await vi.waitFor(() => expect(context.abortSignal?.aborted).toBe(true));
  });

  it('answers invalid_result for a handler response that breaks the contract', async () => {
    handlers.handle(Pick, async () => ({ index: -1 }));
    await expect(ask()).rejects.toMatchObject({ code: 'invalid_result' });
  });

  it("passes a handler's RemoteError code and hides any other throw as internal", async () => {
    const stop = handlers.handle(Pick, async () => {
      throw new RemoteError('user_declined', 'No thanks');
    });
    await expect(ask()).rejects.toMatchObject({ code: 'user_declined', message: 'No thanks' });
    stop();
    handlers.handle(Pick, async () => {
      throw new Error('token=abc123');
    });
    const error = await ask().then(
      () => undefined,
      (cause: RemoteError) => cause,
    );
    expect(error?.toEnvelope()).toEqual({ code: 'internal', message: 'Internal error' });
  });

  it('refuses a second handler for the same interaction', () => {
    handlers.handle(Pick, async () => ({ index: 0 }));
    expect(() => handlers.handle(Pick, async () => ({ index: 1 }))).toThrow(/already registered/);
  });

  it('stops being eligible when its disposer runs, and the broker fails closed', async () => {
    const stop = handlers.handle(Pick, async () => ({ index: 0 }));
    stop();
    expect(broker.eligibleClients('pick')).toEqual([]);
    await expect(ask()).rejects.toMatchObject({ code: 'no_handler' });
  });

  it('aborts running handlers when closed', async () => {
    const waiting = waitingHandler();
    handlers.handle(Pick, waiting.handler);
    const answer = ask().catch((error: RemoteError) => error.code);
    const context = await waiting.started;
    handlers.close();
    expect(context.abortSignal?.aborted).toBe(true);
    channel.endpoint.close();
    expect(await answer).toMatch(/^(cancelled|disconnected)$/);
  });
});
