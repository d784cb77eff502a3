import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT, withAbortSignal } from '@pi/context';
import { RemoteConsumer } from './consumer';
import { ServiceRegistry } from './service-registry';
import { InMemoryChannel } from './testing/in-memory-channel';
import { createNotes, Notes, type NotesProvider } from './testing/notes-service';
import { defineRemoteService } from './tokens';

let notes: NotesProvider;
let channel: InMemoryChannel;
let consumer: RemoteConsumer;

beforeEach(() => {
  notes = createNotes();
  const registry = new ServiceRegistry();
  registry.provide(Notes, notes);
  channel = new InMemoryChannel({ registry });
  consumer = new RemoteConsumer(channel);
});
afterEach(() => {
  consumer.releaseAll();
  channel.endpoint.close();
});

function aborting(): { controller: AbortController; context: ReturnType<typeof withAbortSignal> } {
  const controller = new AbortController();
  return { controller, context: withAbortSignal(controller.signal, BACKGROUND_CONTEXT) };
}

describe('RemoteConsumer sharing', () => {
  it('gives concurrent consumers of one token one proxy over one subscription', async () => {
    const [first, second, third] = await Promise.all([
      consumer.acquire(Notes),
      consumer.acquire(Notes),
      consumer.acquire(Notes),
    ]);
    expect(second.service).toBe(first.service);
    expect(third.service).toBe(first.service);
    expect(second.service.state).toBe(first.service.state);
    expect(channel.watches).toHaveLength(1);
    expect(channel.endpoint.stats.subscriptions).toBe(1);
    expect(consumer.activeServices).toBe(1);
  });

  it('ends the subscription when the last lease is released, and only then', async () => {
    const first = await consumer.acquire(Notes);
    const second = await consumer.acquire(Notes);
    first.release();
    first.release();
    expect(channel.endpoint.stats.subscriptions).toBe(1);
    second.release();
    expect(channel.endpoint.stats.subscriptions).toBe(0);
    expect(consumer.activeServices).toBe(0);
  });

  it('subscribes afresh after the last lease was released', async () => {
    const first = await consumer.acquire(Notes);
    first.release();
    notes.state.set({ notes: ['while away'] }, BACKGROUND_CONTEXT);
    const again = await consumer.acquire(Notes);
    expect(again.service).not.toBe(first.service);
    expect(again.service.state.value.notes).toEqual(['while away']);
    expect(first.service.state.value.notes).toEqual([]);
  });

  it('does not keep a failed subscription, so the next demand tries again', async () => {
    const Missing = defineRemoteService<Record<string, never>>('missing', { methods: {}, state: {}, events: {} });
    await expect(consumer.acquire(Missing)).rejects.toMatchObject({ code: 'unknown_service' });
    expect(consumer.activeServices).toBe(0);
    await expect(consumer.acquire(Missing)).rejects.toMatchObject({ code: 'unknown_service' });
    expect(channel.watches).toHaveLength(2);
  });

  it('ends every subscription on releaseAll and leaves the last values readable', async () => {
    const lease = await consumer.acquire(Notes);
    await notes.add('kept', BACKGROUND_CONTEXT);
    await Promise.resolve();
    await Promise.resolve();
    consumer.releaseAll();
    expect(channel.endpoint.stats.subscriptions).toBe(0);
    expect(lease.service.state.value.notes).toEqual(['kept']);
  });
});

describe('RemoteConsumer cancellation', () => {
  it("cancels only the waiting consumer whose context aborts, not the others' shared subscription", async () => {
    const quitter = aborting();
    const abandoned = consumer.acquire(Notes, quitter.context);
    const patient = consumer.acquire(Notes);
    quitter.controller.abort();
    await expect(abandoned).rejects.toMatchObject({ code: 'cancelled' });
    const lease = await patient;
    await notes.add('still live', BACKGROUND_CONTEXT);
    await Promise.resolve();
    await Promise.resolve();
    expect(lease.service.state.value.notes).toEqual(['still live']);
    lease.release();
    expect(channel.endpoint.stats.subscriptions).toBe(0);
  });

  it('ends the subscription when its only waiting consumer gives up', async () => {
    const quitter = aborting();
    const abandoned = consumer.acquire(Notes, quitter.context);
    quitter.controller.abort();
    await expect(abandoned).rejects.toMatchObject({ code: 'cancelled' });
    expect(channel.endpoint.stats.subscriptions).toBe(0);
    expect(consumer.activeServices).toBe(0);
  });

  it('keeps the subscription when the first consumer aborts its context after it got the proxy', async () => {
    const first = aborting();
    const lease = await consumer.acquire(Notes, first.context);
    first.controller.abort();
    await notes.add('after', BACKGROUND_CONTEXT);
    await Promise.resolve();
    await Promise.resolve();
    expect(lease.service.state.value.notes).toEqual(['after']);
  });
});

describe('RemoteConsumer after a watch ends', () => {
  it('stops sharing a proxy whose watch ended for good; the next acquire hydrates anew', async () => {
    const first = await consumer.acquire(Notes);
    const ended = channel.watches[0];
    ended?.observer.error({ code: 'unknown_service', message: 'The service is gone' });
    expect(consumer.activeServices).toBe(0);

    const second = await consumer.acquire(Notes);

    expect(second.service).not.toBe(first.service);
    expect(channel.watches).toHaveLength(2);
  });
});
