import { describe, expect, it } from 'vitest';
import type { OutboundStream, WatchFrame } from '@pi/remote';
import { FrameStream, type StreamSource } from './frame-stream';
import { DEFAULT_FLOW_CONTROL, OutboundPressure } from './outbound-pressure';
import { WatchBacklog } from './watch-backlog';

/** An outbound report that records what the stream told it. */
function recordingOutbound(): OutboundStream & { readonly log: string[] } {
  const log: string[] = [];
  return {
    log,
    queued: () => void log.push('queued'),
    written: () => void log.push('written'),
    close: () => void log.push('close'),
  };
}

/** A source the test drives by hand. */
function manualSource<T>(): {
  source: StreamSource<T>;
  push(frame: T): void;
  fail(error: unknown): void;
  readonly stopped: number;
} {
  let push: (frame: T) => void = () => undefined;
  let fail: (error: unknown) => void = () => undefined;
  let stopped = 0;
  return {
    source: (onFrame, onFailure) => {
      push = onFrame;
      fail = onFailure;
      return () => void (stopped += 1);
    },
    push: (frame) => push(frame),
    fail: (error) => fail(error),
    get stopped() {
      return stopped;
    },
  };
}

describe('FrameStream', () => {
  it('yields frames in order, whether pushed before or while the consumer waits', async () => {
    const manual = manualSource<number>();
    const stream = new FrameStream(manual.source, recordingOutbound());
    manual.push(1);
    manual.push(2);
    expect(await stream.next()).toEqual({ value: 1, done: false });
    expect(await stream.next()).toEqual({ value: 2, done: false });
    const third = stream.next();
    manual.push(3);
    expect(await third).toEqual({ value: 3, done: false });
  });

  it('reports a frame written only when the consumer asks for the one after it', async () => {
    const manual = manualSource<number>();
    const outbound = recordingOutbound();
    const stream = new FrameStream(manual.source, outbound);
    manual.push(1);
    manual.push(2);
    await stream.next();
    expect(outbound.log).toEqual(['queued', 'queued']);
    await stream.next();
    expect(outbound.log).toEqual(['queued', 'queued', 'written']);
    void stream.next();
    expect(outbound.log).toEqual(['queued', 'queued', 'written', 'written']);
  });

  it('delivers the frames buffered before a failure, then the failure, and stops the source at once', async () => {
    const manual = manualSource<number>();
    const outbound = recordingOutbound();
    const stream = new FrameStream(manual.source, outbound);
    manual.push(1);
    manual.fail(new Error('ended'));
    expect(manual.stopped).toBe(1);
    manual.push(2);
    expect(await stream.next()).toEqual({ value: 1, done: false });
    await expect(stream.next()).rejects.toThrow('ended');
    expect(outbound.log).toEqual(['queued', 'written', 'close']);
  });

  it('rejects a consumer already waiting when the source fails', async () => {
    const manual = manualSource<number>();
    const stream = new FrameStream(manual.source, recordingOutbound());
    const waiting = stream.next();
    manual.fail(new Error('gone'));
    await expect(waiting).rejects.toThrow('gone');
    expect(await stream.next()).toEqual({ value: undefined, done: true });
  });

  it('turns a source that throws when started into a failure of the first frame', async () => {
    const stream = new FrameStream<number>(() => {
      throw new Error('refused');
    }, recordingOutbound());
    await expect(stream.next()).rejects.toThrow('refused');
  });

  it('stops the source and the outbound report when the consumer returns, ending a waiting next', async () => {
    const manual = manualSource<number>();
    const outbound = recordingOutbound();
    const stream = new FrameStream(manual.source, outbound);
    const waiting = stream.next();
    await stream.return();
    expect(await waiting).toEqual({ value: undefined, done: true });
    expect(manual.stopped).toBe(1);
    expect(outbound.log).toEqual(['close']);
    manual.push(1);
    expect(await stream.next()).toEqual({ value: undefined, done: true });
  });
});

describe('FrameStream.pipe', () => {
  it('writes frames pushed before and after, in order, each counted written as it is written', async () => {
    const manual = manualSource<number>();
    const outbound = recordingOutbound();
    const stream = new FrameStream(manual.source, outbound);
    const written: number[] = [];
    manual.push(1);
    const piped = stream.pipe((frame) => {
      written.push(frame);
      outbound.log.push(`write ${frame}`);
    });
    manual.push(2);
    manual.push(3);
    expect(written).toEqual([1, 2, 3]);
    expect(outbound.log).toEqual([
      'queued',
      'write 1',
      'written',
      'queued',
      'write 2',
      'written',
      'queued',
      'write 3',
      'written',
    ]);
    await stream.return();
    await expect(piped).resolves.toBeUndefined();
    expect(manual.stopped).toBe(1);
  });

  it('holds frames while the socket is congested, and writes them, coalesced, once it drains', async () => {
    const socket = { bufferedAmount: 0 };
    const pressure = new OutboundPressure(socket, { ...DEFAULT_FLOW_CONTROL, highWaterBytes: 10 });
    const manual = manualSource<WatchFrame>();
    const stream = new FrameStream(manual.source, recordingOutbound(), {
      backlog: new WatchBacklog(pressure),
      pressure,
    });
    const written: unknown[] = [];
    void stream.pipe((frame) => written.push(frame.toJSON()));
    manual.push(change(1));
    socket.bufferedAmount = 100;
    manual.push(change(2));
    manual.push(change(3));
    expect(written).toHaveLength(1);
    socket.bufferedAmount = 0;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(written).toMatchObject([
      { seq: 1, value: { n: 1 } },
      { seq: 2, value: { n: 3 } },
    ]);
    await stream.return();
  });

  it('writes the frames held before a failure, then rejects with it', async () => {
    const socket = { bufferedAmount: 100 };
    const pressure = new OutboundPressure(socket, { ...DEFAULT_FLOW_CONTROL, highWaterBytes: 10 });
    const manual = manualSource<number>();
    const outbound = recordingOutbound();
    const stream = new FrameStream(manual.source, outbound, { pressure });
    const written: number[] = [];
    const piped = stream.pipe((frame) => written.push(frame));
    manual.push(1);
    manual.fail(new Error('ended'));
    expect(written).toEqual([]);
    socket.bufferedAmount = 0;
    await expect(piped).rejects.toThrow('ended');
    expect(written).toEqual([1]);
    expect(outbound.log.at(-1)).toBe('close');
  });
});

function change(n: number): WatchFrame {
  return { kind: 'state', seq: n, cell: 'count', revision: n, value: { n }, trace: {} };
}
