import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IdleStops } from './idle-stops';

const IDLE_MS = 1_000;

describe('stopping idle session processes', () => {
  let stopped: string[];
  let stops: IdleStops;
  beforeEach(() => {
    vi.useFakeTimers();
    stopped = [];
    stops = new IdleStops(
      IDLE_MS,
      (sessionId) => stopped.push(sessionId),
      () => 'closed',
    );
  });
  afterEach(() => {
    stops.close();
    vi.useRealTimers();
  });

  /** A session that connected and reported: no presentation, and busy or not. */
  const idle = (sessionId: string, busy: boolean | 'unsaid' = false) => {
    stops.status(sessionId, 'starting');
    stops.status(sessionId, 'idle');
    stops.busy(sessionId, busy === 'unsaid' ? undefined : busy);
  };

  it('stops a session with no presentation and no run once the idle period has passed, not before', () => {
    idle('s-1');
    vi.advanceTimersByTime(IDLE_MS - 1);
    expect(stopped).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(stopped).toEqual(['s-1']);
  });

  it('never stops a session with a presentation attached', () => {
    idle('s-1');
    stops.status('s-1', 'active');
    vi.advanceTimersByTime(IDLE_MS * 10);
    expect(stopped).toEqual([]);
  });

  it('never stops a busy session; the period starts once its work is done', () => {
    idle('s-1', true);
    vi.advanceTimersByTime(IDLE_MS * 10);
    expect(stopped).toEqual([]);
    stops.busy('s-1', false);
    vi.advanceTimersByTime(IDLE_MS - 1);
    expect(stopped).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(stopped).toEqual(['s-1']);
  });

  it('never stops a session that has not said whether it is busy', () => {
    idle('s-1', 'unsaid');
    vi.advanceTimersByTime(IDLE_MS * 10);
    expect(stopped).toEqual([]);
  });

  it('starts the period over after a presentation came and went, but not on a repeated report', () => {
    idle('s-1');
    vi.advanceTimersByTime(IDLE_MS / 2);
    stops.busy('s-1', false);
    vi.advanceTimersByTime(IDLE_MS / 2);
    expect(stopped).toEqual(['s-1']);

    idle('s-2');
    vi.advanceTimersByTime(IDLE_MS - 1);
    stops.status('s-2', 'active');
    stops.status('s-2', 'idle');
    vi.advanceTimersByTime(IDLE_MS - 1);
    expect(stopped).toEqual(['s-1']);
    vi.advanceTimersByTime(1);
    expect(stopped).toEqual(['s-1', 's-2']);
  });

  it('forgets a closed session: its next process starts unknown until it reports', () => {
    idle('s-1');
    stops.status('s-1', 'closed');
    vi.advanceTimersByTime(IDLE_MS * 2);
    stops.status('s-1', 'starting');
    stops.status('s-1', 'idle');
    vi.advanceTimersByTime(IDLE_MS * 2);
    expect(stopped).toEqual([]);
    expect(stops.counting('s-1')).toBe(false);
  });

  it('takes the status of a session that reports before any change of it was seen from the process manager', () => {
    const adopted = new IdleStops(
      IDLE_MS,
      (sessionId) => stopped.push(sessionId),
      () => 'idle',
    );
    adopted.busy('s-1', false);
    vi.advanceTimersByTime(IDLE_MS);
    expect(stopped).toEqual(['s-1']);
    adopted.close();
  });

  it('stops nothing with a period of 0, and nothing after close', () => {
    const never = new IdleStops(
      0,
      (sessionId) => stopped.push(sessionId),
      () => 'idle',
    );
    never.status('s-1', 'idle');
    never.busy('s-1', false);
    idle('s-2');
    stops.close();
    vi.advanceTimersByTime(IDLE_MS * 10);
    expect(stopped).toEqual([]);
  });
});
