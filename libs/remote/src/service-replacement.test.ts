import { describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT, withContextValue } from '@pi/context';
import { CLIENT_ID } from './context-keys';
import { ConnectionEndpoint } from './endpoint';
import type { RemoteError } from './errors';
import type { WatchFrame } from './protocol';
import { ServiceRegistry } from './service-registry';
import { createNotes, Notes } from './testing/notes-service';

function registryWith(notes: ReturnType<typeof createNotes>): ServiceRegistry {
  const registry = new ServiceRegistry();
  registry.provide(Notes, notes);
  return registry;
}

function endpointOver(registry: ServiceRegistry): ConnectionEndpoint {
  return new ConnectionEndpoint({
    registry,
    clientId: 'client-1',
    connectionContext: withContextValue(CLIENT_ID, 'client-1', BACKGROUND_CONTEXT),
  });
}

describe('a service replaced by replaceAll (a plugin reload)', () => {
  it('hands the next call to the new implementation', async () => {
    const served = registryWith(createNotes());
    const endpoint = endpointOver(served);
    await endpoint.call({ target: { service: 'notes' }, member: 'add', args: ['old'], trace: {} }, 'c1');
    const replacement = createNotes();
    served.replaceAll(registryWith(replacement));
    const count = await endpoint.call({ target: { service: 'notes' }, member: 'count', args: [], trace: {} }, 'c2');
    expect(count.value).toBe(0);
    await endpoint.call({ target: { service: 'notes' }, member: 'add', args: ['new'], trace: {} }, 'c3');
    expect(replacement.state.value.notes).toEqual(['new']);
  });

  it('restarts a watch on the new implementation with a fresh snapshot, and stops the old stream', async () => {
    const old = createNotes();
    const served = registryWith(old);
    const frames: WatchFrame[] = [];
    const stop = endpointOver(served).watch({ service: 'notes' }, (frame) => frames.push(frame));
    const replacement = createNotes();
    await replacement.add('from the new set', BACKGROUND_CONTEXT);
    served.replaceAll(registryWith(replacement));
    await old.add('from the old set', BACKGROUND_CONTEXT);
    await replacement.add('second', BACKGROUND_CONTEXT);
    expect(frames.map((frame) => [frame.kind, frame.seq])).toEqual([
      ['snapshot', 0],
      ['snapshot', 0],
      ['state', 1],
      ['event', 2],
    ]);
    expect(frames[1]).toMatchObject({ state: { state: { value: { notes: ['from the new set'] } } } });
    stop();
    await replacement.add('after stop', BACKGROUND_CONTEXT);
    expect(frames).toHaveLength(4);
  });

  it('ends a watch with unknown_service when the new set no longer provides the service', () => {
    const served = registryWith(createNotes());
    const ends: RemoteError[] = [];
    endpointOver(served).watch(
      { service: 'notes' },
      () => undefined,
      (error) => ends.push(error),
    );
    served.replaceAll(new ServiceRegistry());
    expect(ends.map((error) => error.code)).toEqual(['unknown_service']);
  });

  it('tells nobody when the implementation stayed the same object', () => {
    const notes = createNotes();
    const served = registryWith(notes);
    let heard = 0;
    served.onReplaced('notes', () => (heard += 1));
    served.replaceAll(registryWith(notes));
    expect(heard).toBe(0);
    const remove = served.onReplaced('notes', () => (heard += 10));
    remove();
    served.replaceAll(registryWith(createNotes()));
    expect(heard).toBe(1);
  });
});
