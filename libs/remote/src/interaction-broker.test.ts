import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { BACKGROUND_CONTEXT, ROOT_TELEMETRY, withAbortSignal, withTelemetryContext } from '@pi/context';
import { installInMemoryTelemetry } from '@pi/context/testing';
import { RemoteError } from './errors';
import { DEFAULT_INTERACTION_TIMEOUT_MS, InteractionBroker } from './interaction-broker';
import type { InteractionFrame } from './protocol';
import { defineInteraction } from './tokens';

const Confirm = defineInteraction<{ command: string }, { allow: boolean }>('confirm', {
  request: z.object({ command: z.string() }),
  response: z.object({ allow: z.boolean() }),
});

afterEach(() => {
  vi.useRealTimers();
});

/** A connected client as the broker sees it: the frames it was sent. */
function client(broker: InteractionBroker, clientId: string, ids: readonly string[] = ['confirm']) {
  const frames: InteractionFrame[] = [];
  const stop = broker.serve(clientId, ids, (frame) => frames.push(frame));
  const requests = () => frames.filter((frame) => frame.kind === 'request');
  return { clientId, frames, stop, requests, lastRequestId: () => requests().at(-1)?.requestId ?? '' };
}

async function rejection(promise: Promise<unknown>): Promise<RemoteError> {
  const error = await promise.then(
    () => undefined,
    (cause: unknown) => cause,
  );
  expect(error).toBeInstanceOf(RemoteError);
  return error as RemoteError;
}

describe('InteractionBroker routing', () => {
  it('sends the request to the eligible client and resolves with its validated answer', async () => {
    const broker = new InteractionBroker();
    const tui = client(broker, 'tui');
    const answer = broker.request(Confirm, { command: 'rm -rf build' }, BACKGROUND_CONTEXT);
    expect(tui.requests()).toEqual([
      {
        kind: 'request',
        requestId: expect.any(String),
        interaction: 'confirm',
        request: { command: 'rm -rf build' },
        trace: {},
      },
    ]);
    broker.reply('tui', { requestId: tui.lastRequestId(), response: { allow: true } });
    await expect(answer).resolves.toEqual({ allow: true });
    expect(broker.pendingCount).toBe(0);
  });

  it('carries the requesting context trace in the request frame', () => {
    const telemetry = installInMemoryTelemetry();
    try {
      const broker = new InteractionBroker();
      const tui = client(broker, 'tui');
      const span = ROOT_TELEMETRY.startSpan({ name: 'tool.execute' }, (active) => {
        void broker
          .request(Confirm, { command: 'ls' }, withTelemetryContext(active, BACKGROUND_CONTEXT))
          .catch(() => undefined);
        return active;
      });
      const frame = tui.requests()[0];
      expect(frame?.kind === 'request' && frame.trace.traceparent).toContain(span.spanId);
      broker.disconnect('tui');
    } finally {
      telemetry.uninstall();
    }
  });

  it('picks the client that most recently declared a handler', () => {
    const broker = new InteractionBroker();
    const older = client(broker, 'older');
    const newer = client(broker, 'newer');
    client(broker, 'other', ['oauth']);
    expect(broker.eligibleClients('confirm')).toEqual(['newer', 'older']);
    void broker.request(Confirm, { command: 'a' }, BACKGROUND_CONTEXT).catch(() => undefined);
    expect(newer.requests()).toHaveLength(1);
    expect(older.requests()).toHaveLength(0);
    broker.serve('older', ['confirm'], (frame) => older.frames.push(frame));
    expect(broker.eligibleClients('confirm')).toEqual(['older', 'newer']);
    broker.disconnect('older');
    broker.disconnect('newer');
  });

  it('sends a request addressed to one client to that client only, and refuses it when that client does not handle it', async () => {
    const broker = new InteractionBroker();
    const older = client(broker, 'older');
    const newer = client(broker, 'newer');
    const answer = broker.request(Confirm, { command: 'a' }, BACKGROUND_CONTEXT, { clientId: 'older' });
    expect(older.requests()).toHaveLength(1);
    expect(newer.requests()).toHaveLength(0);
    broker.reply('older', { requestId: older.lastRequestId(), response: { allow: false } });
    await expect(answer).resolves.toEqual({ allow: false });
    client(broker, 'other', ['oauth']);
    expect(
      (await rejection(broker.request(Confirm, { command: 'a' }, BACKGROUND_CONTEXT, { clientId: 'other' }))).code,
    ).toBe('no_handler');
    expect(
      (await rejection(broker.request(Confirm, { command: 'a' }, BACKGROUND_CONTEXT, { clientId: 'gone' }))).code,
    ).toBe('no_handler');
  });

  it('refuses a malformed answer to a sensitive interaction without quoting any of it', async () => {
    const Secret = defineInteraction<{ provider: string }, { key: string }>('secret', {
      request: z.object({ provider: z.string() }),
      response: z.object({ key: z.string().regex(/^sk-/, 'must start with sk-') }),
      sensitive: true,
    });
    const broker = new InteractionBroker();
    const tui = client(broker, 'tui', ['secret']);
    const answer = broker.request(Secret, { provider: 'a' }, BACKGROUND_CONTEXT);
    broker.reply('tui', { requestId: tui.lastRequestId(), response: { key: 'hunter2-oops' } });
    const error = await rejection(answer);
    expect(error.code).toBe('invalid_result');
    expect(JSON.stringify({ message: error.message, data: error.data })).not.toMatch(/hunter2|sk-/);
    expect(Secret.sensitive).toBe(true);
    expect(Confirm.sensitive).toBe(false);
  });

  it('falls back to the previous client when the newest stops serving, and the stop removes only its own declaration', () => {
    const broker = new InteractionBroker();
    client(broker, 'older');
    const newer = client(broker, 'newer');
    const firstDeclaration = newer.stop;
    broker.serve('newer', ['confirm'], () => undefined);
    firstDeclaration();
    expect(broker.eligibleClients('confirm')).toEqual(['newer', 'older']);
    broker.disconnect('newer');
    expect(broker.eligibleClients('confirm')).toEqual(['older']);
  });

  it('fails closed with no_handler when no connected client handles the interaction', async () => {
    const broker = new InteractionBroker();
    const other = client(broker, 'tui', ['oauth']);
    expect((await rejection(broker.request(Confirm, { command: 'x' }, BACKGROUND_CONTEXT))).code).toBe('no_handler');
    expect(other.frames).toEqual([]);
  });

  it('rejects a request that breaks its own contract before sending anything', async () => {
    const broker = new InteractionBroker();
    const tui = client(broker, 'tui');
    const error = await rejection(
      broker.request(Confirm, { command: 7 } as unknown as { command: string }, BACKGROUND_CONTEXT),
    );
    expect(error.code).toBe('invalid_argument');
    expect(tui.frames).toEqual([]);
  });
});

describe('InteractionBroker failures', () => {
  it('times out, tells the client to stop, and forgets the request', async () => {
    vi.useFakeTimers();
    const broker = new InteractionBroker();
    const tui = client(broker, 'tui');
    const answer = rejection(broker.request(Confirm, { command: 'x' }, BACKGROUND_CONTEXT, { timeoutMs: 1_000 }));
    await vi.advanceTimersByTimeAsync(999);
    expect(broker.pendingCount).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect((await answer).code).toBe('timeout');
    expect(tui.frames.at(-1)).toEqual({ kind: 'cancel', requestId: tui.lastRequestId() });
    expect(broker.pendingCount).toBe(0);
  });

  it('applies the default timeout when none is given', async () => {
    vi.useFakeTimers();
    const broker = new InteractionBroker();
    client(broker, 'tui');
    const answer = rejection(broker.request(Confirm, { command: 'x' }, BACKGROUND_CONTEXT));
    await vi.advanceTimersByTimeAsync(DEFAULT_INTERACTION_TIMEOUT_MS);
    expect((await answer).code).toBe('timeout');
  });

  it('cancels when the requesting context aborts, and tells the client', async () => {
    const broker = new InteractionBroker();
    const tui = client(broker, 'tui');
    const controller = new AbortController();
    const answer = rejection(
      broker.request(Confirm, { command: 'x' }, withAbortSignal(controller.signal, BACKGROUND_CONTEXT)),
    );
    controller.abort();
    expect((await answer).code).toBe('cancelled');
    expect(tui.frames.at(-1)).toEqual({ kind: 'cancel', requestId: tui.lastRequestId() });
  });

  it('rejects with cancelled at once for an already aborted context, sending nothing', async () => {
    const broker = new InteractionBroker();
    const tui = client(broker, 'tui');
    const controller = new AbortController();
    controller.abort();
    expect(
      (
        await rejection(
          broker.request(Confirm, { command: 'x' }, withAbortSignal(controller.signal, BACKGROUND_CONTEXT)),
        )
      ).code,
    ).toBe('cancelled');
    expect(tui.frames).toEqual([]);
  });

  it('fails with disconnected when the handling client goes away, and no longer routes to it', async () => {
    const broker = new InteractionBroker();
    const tui = client(broker, 'tui');
    const answer = rejection(broker.request(Confirm, { command: 'x' }, BACKGROUND_CONTEXT));
    broker.disconnect('tui');
    expect((await answer).code).toBe('disconnected');
    expect(tui.frames.filter((frame) => frame.kind === 'cancel')).toEqual([]);
    expect(broker.eligibleClients('confirm')).toEqual([]);
  });

  it('leaves requests sent to other clients alone on a disconnect', async () => {
    const broker = new InteractionBroker();
    const first = client(broker, 'first');
    const pending = broker.request(Confirm, { command: 'x' }, BACKGROUND_CONTEXT);
    client(broker, 'second');
    broker.disconnect('second');
    broker.reply('first', { requestId: first.lastRequestId(), response: { allow: false } });
    await expect(pending).resolves.toEqual({ allow: false });
  });

  it('rejects a malformed answer with invalid_result', async () => {
    const broker = new InteractionBroker();
    const tui = client(broker, 'tui');
    const answer = rejection(broker.request(Confirm, { command: 'x' }, BACKGROUND_CONTEXT));
    broker.reply('tui', { requestId: tui.lastRequestId(), response: { allow: 'yes' } });
    expect((await answer).code).toBe('invalid_result');
  });

  it("passes on the client's error envelope with its code", async () => {
    const broker = new InteractionBroker();
    const tui = client(broker, 'tui');
    const answer = rejection(broker.request(Confirm, { command: 'x' }, BACKGROUND_CONTEXT));
    broker.reply('tui', { requestId: tui.lastRequestId(), error: { code: 'user_declined', message: 'No' } });
    expect((await answer).toEnvelope()).toEqual({ code: 'user_declined', message: 'No' });
  });

  it('does not believe a client that claims a code only the host produces', async () => {
    const broker = new InteractionBroker();
    const tui = client(broker, 'tui');
    const answer = rejection(broker.request(Confirm, { command: 'x' }, BACKGROUND_CONTEXT));
    broker.reply('tui', { requestId: tui.lastRequestId(), error: { code: 'not_authorized', message: 'trust me' } });
    expect((await answer).toEnvelope()).toMatchObject({ code: 'internal', data: { clientCode: 'not_authorized' } });
  });

  it('accepts an answer only from the client it asked, and only once', async () => {
    const broker = new InteractionBroker();
    const tui = client(broker, 'tui');
    client(broker, 'intruder', []);
    const answer = broker.request(Confirm, { command: 'x' }, BACKGROUND_CONTEXT);
    const requestId = tui.lastRequestId();
    expect(() => broker.reply('intruder', { requestId, response: { allow: true } })).toThrow(
      /No such pending interaction/,
    );
    broker.reply('tui', { requestId, response: { allow: false } });
    await expect(answer).resolves.toEqual({ allow: false });
    expect(() => broker.reply('tui', { requestId, response: { allow: true } })).toThrow(RemoteError);
  });
});
