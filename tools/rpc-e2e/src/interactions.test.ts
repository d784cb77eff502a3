import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT, withAbortSignal, withTelemetryContext, type Context } from '@pi/context';
import { installInMemoryTelemetry, type InMemoryTelemetry } from '@pi/context/testing';
import type { InteractionFrame } from '@pi/remote';
import type { RpcClient } from '@pi/transport-trpc';
import {
  Ask,
  TRANSPORTS,
  eventually,
  nextValue,
  openRawChannel,
  remoteErrorOf,
  serveHost,
  startRpcFixture,
  type AskRequest,
  type AskResponse,
  type HostTransport,
  type RawChannel,
  type RpcFixture,
} from '@pi/test-support';

const QUESTION: AskRequest = { question: 'Proceed?', options: ['yes', 'no'] };

/** A handler that reports its context when it starts and answers only by failing once that context aborts. */
function waitingHandler(): {
  started: Promise<Context>;
  handler: (request: AskRequest, context: Context) => Promise<AskResponse>;
} {
  let started: (context: Context) => void = () => undefined;
  const startedPromise = new Promise<Context>((resolve) => (started = resolve));
  return {
    started: startedPromise,
    handler: (_request, context) =>
      new Promise((_resolve, reject) => {
        started(context);
        context.abortSignal?.addEventListener('abort', () => reject(new Error('stopped')));
      }),
  };
}

describe.each(TRANSPORTS)('reverse interactions over %s', (kind) => {
  let fixture: RpcFixture;
  beforeEach(async () => {
    fixture = await startRpcFixture(kind);
  });
  afterEach(() => fixture.close());

  async function handlingClient(
    handler: (request: AskRequest, context: Context) => Promise<AskResponse>,
  ): Promise<RpcClient> {
    const client = await fixture.connect();
    const before = fixture.broker.eligibleClients('ask').length;
    client.handle(Ask, handler);
    await eventually(() => fixture.broker.eligibleClients('ask').length === before + 1);
    return client;
  }

  it("a client's handler answers the host's request", async () => {
    const asked: AskRequest[] = [];
    await handlingClient(async (request) => {
      asked.push(request);
      return { outcome: 'selected', index: request.options.length - 1 };
    });
    expect(await fixture.broker.request(Ask, QUESTION, BACKGROUND_CONTEXT)).toEqual({ outcome: 'selected', index: 1 });
    expect(asked).toEqual([QUESTION]);
  });

  it('the client that declared a handler most recently is asked, and the older one takes over when it leaves', async () => {
    await handlingClient(async () => ({ outcome: 'selected', index: 0 }));
    const newer = await handlingClient(async () => ({ outcome: 'cancelled' }));
    expect(await fixture.broker.request(Ask, QUESTION, BACKGROUND_CONTEXT)).toEqual({ outcome: 'cancelled' });
    newer.close();
    await eventually(() => fixture.broker.eligibleClients('ask').length === 1);
    expect(await fixture.broker.request(Ask, QUESTION, BACKGROUND_CONTEXT)).toEqual({ outcome: 'selected', index: 0 });
  });

  it('with no eligible handler the request fails closed with no_handler', async () => {
    expect((await remoteErrorOf(fixture.broker.request(Ask, QUESTION, BACKGROUND_CONTEXT))).code).toBe('no_handler');
    const client = await fixture.connect();
    const stop = client.handle(Ask, async () => ({ outcome: 'cancelled' }));
    await eventually(() => fixture.broker.eligibleClients('ask').length === 1);
    stop();
    await eventually(() => fixture.broker.eligibleClients('ask').length === 0);
    expect((await remoteErrorOf(fixture.broker.request(Ask, QUESTION, BACKGROUND_CONTEXT))).code).toBe('no_handler');
  });

  it('a request that may wait for a handler reaches a client that connects and declares one later', async () => {
    const answer = fixture.broker.request(Ask, QUESTION, BACKGROUND_CONTEXT, { waitForHandlerMs: 10_000 });
    await handlingClient(async () => ({ outcome: 'selected', index: 0 }));
    expect(await answer).toEqual({ outcome: 'selected', index: 0 });
  });

  it('a request that may wait for a handler fails closed with timeout when none comes', async () => {
    const failure = await remoteErrorOf(
      fixture.broker.request(Ask, QUESTION, BACKGROUND_CONTEXT, { waitForHandlerMs: 20 }),
    );
    expect(failure).toMatchObject({ code: 'timeout', message: expect.stringContaining('unattended') });
  });

  it("an unanswered request times out and the client handler's context aborts", async () => {
    const waiting = waitingHandler();
    await handlingClient(waiting.handler);
    const answer = remoteErrorOf(fixture.broker.request(Ask, QUESTION, BACKGROUND_CONTEXT, { timeoutMs: 50 }));
    const context = await waiting.started;
    expect((await answer).code).toBe('timeout');
    await eventually(() => context.abortSignal?.aborted === true);
    expect(fixture.broker.pendingCount).toBe(0);
  });

  it("aborting the request's context cancels it and aborts the client handler's context", async () => {
    const waiting = waitingHandler();
    await handlingClient(waiting.handler);
    const controller = new AbortController();
    const answer = remoteErrorOf(
      fixture.broker.request(Ask, QUESTION, withAbortSignal(controller.signal, BACKGROUND_CONTEXT)),
    );
    const context = await waiting.started;
    expect(context.abortSignal?.aborted).toBe(false);
    controller.abort();
    expect((await answer).code).toBe('cancelled');
    await eventually(() => context.abortSignal?.aborted === true);
  });

  it('the handling client disconnecting mid-request fails it with disconnected', async () => {
    const waiting = waitingHandler();
    const client = await handlingClient(waiting.handler);
    const answer = remoteErrorOf(fixture.broker.request(Ask, QUESTION, BACKGROUND_CONTEXT));
    await waiting.started;
    client.close();
    expect((await answer).code).toBe('disconnected');
    expect(fixture.broker.eligibleClients('ask')).toEqual([]);
  });

  it("a handler's malformed answer is rejected with invalid_result", async () => {
    await handlingClient(async () => ({ outcome: 'selected', index: -1 }));
    expect((await remoteErrorOf(fixture.broker.request(Ask, QUESTION, BACKGROUND_CONTEXT))).code).toBe(
      'invalid_result',
    );
  });

  it('a client that reconnects serves its handlers again', async () => {
    const client = await handlingClient(async () => ({ outcome: 'selected', index: 0 }));
    fixture.dropConnections();
    await nextValue(client.connection, (state) => state.status === 'connected' && state.epoch === 2);
    await eventually(() => fixture.broker.eligibleClients('ask').length === 1);
    expect(await fixture.broker.request(Ask, QUESTION, BACKGROUND_CONTEXT)).toEqual({ outcome: 'selected', index: 0 });
  });
});

describe.each(TRANSPORTS)('interaction answers from raw clients over %s', (kind) => {
  let fixture: RpcFixture;
  let served: HostTransport;
  let asked: RawChannel;
  let intruder: RawChannel;
  beforeEach(async () => {
    fixture = await startRpcFixture(kind);
    served = await serveHost(kind, fixture.host);
    asked = await openRawChannel(served.socketFactory);
    intruder = await openRawChannel(served.socketFactory);
  });
  afterEach(async () => {
    asked.close();
    intruder.close();
    await served.close();
    await fixture.close();
  });

  function serveRaw(raw: RawChannel): Promise<Extract<InteractionFrame, { kind: 'request' }>> {
    return new Promise((resolve) => {
      raw.channel.serveInteractions(['ask'], (frame) => {
        if (frame.kind === 'request') resolve(frame);
      });
    });
  }

  it("the host checks an answer itself: a malformed one that skipped the client's check is invalid_result", async () => {
    const request = serveRaw(asked);
    await eventually(() => fixture.broker.eligibleClients('ask').length === 1);
    const answer = remoteErrorOf(fixture.broker.request(Ask, QUESTION, BACKGROUND_CONTEXT));
    await asked.channel.reply({ requestId: (await request).requestId, response: { outcome: 'maybe' } });
    expect((await answer).code).toBe('invalid_result');
  });

  it('only the client that was asked can answer', async () => {
    const request = serveRaw(asked);
    await eventually(() => fixture.broker.eligibleClients('ask').length === 1);
    const answer = fixture.broker.request(Ask, QUESTION, BACKGROUND_CONTEXT);
    const { requestId } = await request;
    expect((await remoteErrorOf(intruder.channel.reply({ requestId, response: { outcome: 'cancelled' } }))).code).toBe(
      'stale_reference',
    );
    await asked.channel.reply({ requestId, response: { outcome: 'selected', index: 1 } });
    expect(await answer).toEqual({ outcome: 'selected', index: 1 });
  });
});

describe.each(TRANSPORTS)('interaction contexts over %s', (kind) => {
  let telemetry: InMemoryTelemetry;
  let fixture: RpcFixture;
  beforeEach(async () => {
    telemetry = installInMemoryTelemetry();
    fixture = await startRpcFixture(kind);
  });
  afterEach(async () => {
    await fixture.close();
    telemetry.uninstall();
  });

  it("the client handler runs under the host request's trace", async () => {
    const contexts: Context[] = [];
    const client = await fixture.connect();
    client.handle(Ask, async (_request, context) => {
      contexts.push(context);
      return { outcome: 'cancelled' };
    });
    await eventually(() => fixture.broker.eligibleClients('ask').length === 1);
    const span = await BACKGROUND_CONTEXT.telemetryContext.startSpan({ name: 'tool.question' }, async (active) => {
      await fixture.broker.request(Ask, QUESTION, withTelemetryContext(active, BACKGROUND_CONTEXT));
      return active;
    });
    expect(span.traceId).toEqual(expect.any(String));
    expect(contexts[0]?.telemetryContext.traceId).toBe(span.traceId);
    expect(contexts[0]?.telemetryContext.spanId).toBe(span.spanId);
  });
});
