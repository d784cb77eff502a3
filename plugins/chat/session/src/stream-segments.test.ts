import { describe, expect, it } from 'vitest';
import { StreamSegments } from './stream-segments';

describe('stream segments', () => {
  it('numbers offsets by the text before each delta', () => {
    const segments = new StreamSegments(32);
    expect(segments.delta('op', 'Hel').event).toEqual({
      type: 'delta',
      operationId: 'op',
      segment: 0,
      offset: 0,
      text: 'Hel',
    });
    expect(segments.delta('op', 'lo').event).toMatchObject({ offset: 3, text: 'lo' });
  });

  it('checkpoints at the first delta of a segment and every N deltas after it', () => {
    const segments = new StreamSegments(3);
    const checkpointed = Array.from({ length: 8 }, (_, index) => segments.delta('op', `${index}`).checkpoint !== null);
    expect(checkpointed).toEqual([true, false, false, true, false, false, true, false]);
    expect(new StreamSegments(3).delta('op', 'abc').checkpoint).toEqual({
      operationId: 'op',
      segment: 0,
      text: 'abc',
      offset: 3,
    });
  });

  it('closing a segment starts the next one at offset 0 with the next number', () => {
    const segments = new StreamSegments(32);
    segments.delta('op', 'first');
    expect(segments.close('op')).toBe(0);
    expect(segments.delta('op', 'second').event).toMatchObject({ segment: 1, offset: 0 });
    expect(segments.delta('op', '!').checkpoint).toBeNull();
  });

  it('a message without streamed text still takes a segment number', () => {
    const segments = new StreamSegments(32);
    expect(segments.close('op')).toBe(0);
    expect(segments.close('op')).toBe(1);
  });

  it('settling forgets the run, and runs are counted apart', () => {
    const segments = new StreamSegments(32);
    segments.delta('a', 'x');
    segments.close('a');
    segments.delta('b', 'y');
    expect(segments.delta('a', 'z').event.segment).toBe(1);
    segments.settle('a');
    expect(segments.delta('a', 'again').event).toMatchObject({ segment: 0, offset: 0 });
    expect(segments.delta('b', 'y').event).toMatchObject({ segment: 0, offset: 1 });
  });
});
