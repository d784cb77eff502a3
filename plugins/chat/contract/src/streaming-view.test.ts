import { describe, expect, it } from 'vitest';
import type { ChatEvent, StreamingCheckpoint } from './chat-events';
import { applyChatCheckpoint, applyChatEvent, streamingViewFrom, type StreamingView } from './streaming-view';

const delta = (offset: number, text: string, segment = 0, operationId = 'op-1'): ChatEvent => ({
  type: 'delta',
  operationId,
  segment,
  offset,
  text,
});
const checkpoint = (text: string, segment = 0, operationId = 'op-1'): StreamingCheckpoint => ({
  operationId,
  segment,
  text,
  offset: text.length,
});
const final = (segment = 0, operationId = 'op-1'): ChatEvent => ({
  type: 'final',
  operationId,
  segment,
  entry: { kind: 'assistant', id: 'e1', operationId, text: 'Hello world', toolCalls: [], stopReason: 'stop' },
});

function replay(view: StreamingView | null, events: ChatEvent[]): StreamingView | null {
  return events.reduce(applyChatEvent, view);
}

describe('streaming view', () => {
  it('builds the text from the first delta on', () => {
    const view = replay(null, [delta(0, 'Hel'), delta(3, 'lo '), delta(6, 'world')]);
    expect(view).toEqual({ operationId: 'op-1', segment: 0, text: 'Hello world', waitingForFinal: false });
  });

  it('a late joiner continues from the checkpoint with only the deltas after it', () => {
    const view = replay(streamingViewFrom(checkpoint('Hello ')), [delta(6, 'world')]);
    expect(view?.text).toBe('Hello world');
  });

  it('skips deltas the checkpoint already covers, and the covered part of one that straddles it', () => {
    const view = replay(streamingViewFrom(checkpoint('Hello wo')), [
      delta(3, 'lo '),
      delta(6, 'world'),
      delta(11, '!'),
    ]);
    expect(view).toEqual({ operationId: 'op-1', segment: 0, text: 'Hello world!', waitingForFinal: false });
  });

  it('on a gap keeps the prefix, ignores later deltas and waits for the final', () => {
    const gapped = replay(streamingViewFrom(checkpoint('Hel')), [delta(6, 'world')]);
    expect(gapped).toEqual({ operationId: 'op-1', segment: 0, text: 'Hel', waitingForFinal: true });
    expect(applyChatEvent(gapped, delta(3, 'lo '))).toBe(gapped);
    expect(applyChatEvent(gapped, final())).toBeNull();
  });

  it('a segment first seen mid-way waits for its final instead of showing a suffix', () => {
    expect(applyChatEvent(null, delta(5, ' world'))).toEqual({
      operationId: 'op-1',
      segment: 0,
      text: '',
      waitingForFinal: true,
    });
  });

  it('a newer checkpoint of the same segment closes a gap', () => {
    const gapped = replay(streamingViewFrom(checkpoint('Hel')), [delta(6, 'world')]);
    const resumed = applyChatCheckpoint(gapped, checkpoint('Hello world'));
    expect(resumed).toEqual({ operationId: 'op-1', segment: 0, text: 'Hello world', waitingForFinal: false });
    expect(applyChatEvent(resumed, delta(11, '!'))?.text).toBe('Hello world!');
  });

  it('a checkpoint never shortens the text the deltas already built', () => {
    const view = replay(null, [delta(0, 'Hello'), delta(5, ' world')]);
    expect(applyChatCheckpoint(view, checkpoint('Hello'))).toBe(view);
  });

  it('the next segment of the run starts over at offset 0', () => {
    const view = replay(null, [delta(0, 'Asking.'), final(0), delta(0, 'You ', 1), delta(4, 'chose', 1)]);
    expect(view).toEqual({ operationId: 'op-1', segment: 1, text: 'You chose', waitingForFinal: false });
  });

  it('a late final of an earlier segment does not end a newer one', () => {
    const view = replay(null, [delta(0, 'Next', 1)]);
    expect(applyChatEvent(view, final(0))).toBe(view);
    expect(applyChatEvent(view, delta(0, 'old', 0))).toBe(view);
  });

  it('settling the run clears its view but not another run’s', () => {
    const view = replay(null, [delta(0, 'partial')]);
    expect(applyChatEvent(view, { type: 'settled', operationId: 'op-1', outcome: 'aborted', error: null })).toBeNull();
    expect(applyChatEvent(view, { type: 'settled', operationId: 'op-0', outcome: 'completed', error: null })).toBe(
      view,
    );
  });

  it('a cleared checkpoint means no segment is open', () => {
    expect(applyChatCheckpoint(replay(null, [delta(0, 'x')]), null)).toBeNull();
    expect(streamingViewFrom(null)).toBeNull();
  });
});
