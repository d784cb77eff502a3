import { describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT, withContextValue } from '@pi/context';
import { CLIENT_ID } from './context-keys';
import { ConnectionEndpoint } from './endpoint';
import { OutboundFrames } from './outbound-frames';
import type { WatchFrame } from './protocol';
import { ServiceRegistry } from './service-registry';
import { createNotes, Notes } from './testing/notes-service';

/** Whether a promise has settled after every pending microtask and one macrotask ran. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('OutboundFrames', () => {
  it('has nothing to wait for while every frame handed over is written', () => {
    const frames = new OutboundFrames();
    const stream = frames.open();
    expect(frames.flushed()).toBeUndefined();
    stream.queued();
    stream.written();
    expect(frames.flushed()).toBeUndefined();
  });

  it('waits for the frames handed over before it, and not for later ones', async () => {
    const frames = new OutboundFrames();
    const stream = frames.open();
    stream.queued();
    stream.queued();
    const flushed = frames.flushed() as Promise<void>;
    stream.queued();
    stream.written();
    expect(await settled(flushed)).toBe(false);
    stream.written();
    expect(await settled(flushed)).toBe(true);
  });

  it('waits for every stream of the connection', async () => {
    const frames = new OutboundFrames();
    const first = frames.open();
    const second = frames.open();
    first.queued();
    second.queued();
    const flushed = frames.flushed() as Promise<void>;
    first.written();
    expect(await settled(flushed)).toBe(false);
    second.written();
    expect(await settled(flushed)).toBe(true);
  });

  it('stops waiting for a stream that ends with frames unwritten, and counts nothing of it after', async () => {
    const frames = new OutboundFrames();
    const stream = frames.open();
    stream.queued();
    const flushed = frames.flushed() as Promise<void>;
    stream.close();
    expect(await settled(flushed)).toBe(true);
    stream.queued();
    expect(frames.flushed()).toBeUndefined();
  });

  it('stops every wait when the connection closes, and streams opened after count nothing', async () => {
    const frames = new OutboundFrames();
    const stream = frames.open();
    stream.queued();
    const flushed = frames.flushed() as Promise<void>;
    frames.close();
    expect(await settled(flushed)).toBe(true);
    frames.open().queued();
    expect(frames.flushed()).toBeUndefined();
  });

  it('ignores a report of more frames written than were handed over', () => {
    const frames = new OutboundFrames();
    const stream = frames.open();
    stream.written();
    stream.queued();
    expect(frames.flushed()).toBeInstanceOf(Promise);
  });
});

describe('ConnectionEndpoint read-your-writes', () => {
  function open(): { endpoint: ConnectionEndpoint; notes: ReturnType<typeof createNotes> } {
    const notes = createNotes();
    const registry = new ServiceRegistry();
    registry.provide(Notes, notes);
    const endpoint = new ConnectionEndpoint({
      registry,
      clientId: 'client-1',
      connectionContext: withContextValue(CLIENT_ID, 'client-1', BACKGROUND_CONTEXT),
    });
    return { endpoint, notes };
  }

  /** A watch whose transport writes frames only when the test says so, as tRPC's adapter does a few turns later. */
  function slowWatch(endpoint: ConnectionEndpoint): { frames: WatchFrame[]; writeAll(): void } {
    const outbound = endpoint.openOutbound();
    const frames: WatchFrame[] = [];
    endpoint.watch({ service: 'notes' }, (frame) => {
      outbound.queued();
      frames.push(frame);
    });
    let written = 0;
    return {
      frames,
      writeAll: () => {
        for (; written < frames.length; written++) outbound.written();
      },
    };
  }

  it('settles a call only after the frames its own changes produced are written', async () => {
    const { endpoint } = open();
    const watch = slowWatch(endpoint);
    watch.writeAll();
    const call = endpoint.call({ target: { service: 'notes' }, member: 'add', args: ['mine'], trace: {} }, '1');
    expect(await settled(call)).toBe(false);
    expect(watch.frames).toContainEqual(expect.objectContaining({ kind: 'state', value: { notes: ['mine'] } }));
    watch.writeAll();
    expect(await call).toEqual({ value: 1 });
  });

  it('settles a failing call only after the frames handed over before its failure are written', async () => {
    const { endpoint, notes } = open();
    const watch = slowWatch(endpoint);
    notes.events.emit({ type: 'cleared' }, BACKGROUND_CONTEXT);
    const call = endpoint.call({ target: { service: 'notes' }, member: 'add', args: [''], trace: {} }, '1');
    expect(await settled(call)).toBe(false);
    watch.writeAll();
    await expect(call).rejects.toMatchObject({ code: 'invalid_argument' });
  });

  it('settles a waiting call when the connection closes', async () => {
    const { endpoint } = open();
    slowWatch(endpoint);
    const call = endpoint.call({ target: { service: 'notes' }, member: 'count', args: [], trace: {} }, '1');
    expect(await settled(call)).toBe(false);
    endpoint.close();
    expect(await call).toEqual({ value: 0 });
  });
});
