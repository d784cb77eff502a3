import { describe, expect, it } from 'vitest';
import type { OutboundStream, WatchFrame } from '@pi/remote';
import { FrameStream, type StreamSource } from './frame-stream';
import { DEFAULT_FLOW_CONTROL, OutboundPressure } from './outbound-pressure';
import { WatchBacklog } from './watch-backlog';

const state = (n: number, cell = 'count'): WatchFrame => ({
  kind: 'state',
  seq: n,
  cell,
  revision: n,
  value: { n },
  trace: {},
});
const event = (n: number): WatchFrame => ({ kind: 'event', seq: n, stream: 'marks', event: { n }, trace: {} });

function drain(backlog: WatchBacklog): Array<{ seq: number; kind: string; n: number; weight: number }> {
  const out = [];
  for (let shifted = backlog.shift(); shifted !== undefined; shifted = backlog.shift()) {
    const { frame } = shifted;
    const wire = frame.toJSON();
    const n = wire.kind === 'state' ? wire.value : wire.kind === 'event' ? wire.event : { n: -1 };
    out.push({ seq: frame.seq, kind: wire.kind, n: (n as { n: number }).n, weight: shifted.weight });
  }
  return out;
}

describe('WatchBacklog', () => {
  const limits = { ...DEFAULT_FLOW_CONTROL, maxBacklogEvents: 3 };

  it('keeps every frame while the connection drains', () => {
    const pressure = new OutboundPressure({}, limits);
    const backlog = new WatchBacklog(pressure);
    for (let n = 1; n <= 5; n++) backlog.push(state(n), false);
    expect(drain(backlog).map((frame) => frame.n)).toEqual([1, 2, 3, 4, 5]);
    expect(pressure.backlogBytes).toBe(0);
  });

  it('under pressure keeps the newest change of a cell, in its newest place, standing for the ones it replaced', () => {
    const pressure = new OutboundPressure({}, limits);
    const backlog = new WatchBacklog(pressure);
    backlog.push(state(1), true);
    backlog.push(state(1, 'other'), true);
    backlog.push(state(2), true);
    backlog.push(state(3), true);
    expect(drain(backlog)).toEqual([
      { seq: 1, kind: 'state', n: 1, weight: 1 },
      { seq: 2, kind: 'state', n: 3, weight: 3 },
    ]);
    expect(pressure.backlogBytes).toBe(0);
  });

  it('drops the held events past its bound and skips a seq, never silently', () => {
    const pressure = new OutboundPressure({}, limits);
    const backlog = new WatchBacklog(pressure);
    for (let n = 1; n <= 4; n++) backlog.push(event(n), true);
    backlog.push(event(5), true);
    expect(pressure.overflows).toBe(1);
    // Events 1–3 were held, 4 overflowed them: 4 and 5 remain, behind a gap, weighing for all five.
    expect(drain(backlog)).toEqual([
      { seq: 2, kind: 'event', n: 4, weight: 4 },
      { seq: 3, kind: 'event', n: 5, weight: 1 },
    ]);
  });

  it('numbers frames from the snapshot on', () => {
    const pressure = new OutboundPressure({}, limits);
    const backlog = new WatchBacklog(pressure);
    backlog.push({ kind: 'snapshot', seq: 0, state: {} }, false);
    backlog.push(event(1), false);
    expect(drain(backlog).map((frame) => frame.seq)).toEqual([0, 1]);
  });
});

describe('FrameStream under pressure', () => {
  it('holds frames while the socket is over its high-water mark, then counts replaced frames as written', async () => {
    const socket = { bufferedAmount: 0 };
    const pressure = new OutboundPressure(socket, { ...DEFAULT_FLOW_CONTROL, highWaterBytes: 10 });
    let push: (frame: WatchFrame) => void = () => undefined;
    const source: StreamSource<WatchFrame> = (onFrame) => {
      push = onFrame;
      return () => undefined;
    };
    const log: string[] = [];
    const outbound: OutboundStream = {
      queued: () => void log.push('queued'),
      written: () => void log.push('written'),
      close: () => void log.push('close'),
    };
    const stream = new FrameStream(source, outbound, { backlog: new WatchBacklog(pressure), pressure });
    push(state(1));
    expect((await stream.next()).value?.seq).toBe(1);
    socket.bufferedAmount = 100;
    const held = stream.next();
    push(state(2));
    push(state(3));
    let settled = false;
    void held.then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(settled).toBe(false);
    socket.bufferedAmount = 0;
    const next = await held;
    expect(next.value?.toJSON()).toMatchObject({ seq: 2, value: { n: 3 } });
    void stream.next();
    // Frame 1 written when the second `next` came; frames 2 and 3 (one frame out) when the third did.
    expect(log).toEqual(['queued', 'written', 'queued', 'queued', 'written', 'written']);
    await stream.return();
  });
});
