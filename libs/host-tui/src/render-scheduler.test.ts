import { describe, expect, it } from 'vitest';
import { FRAME_MS, RenderScheduler, STREAM_FRAME_MS, type FrameTiming } from './render-scheduler';

/**
 * An event loop in miniature: `input()` hands over what a turn read (a key, a delta), `advance(ms)` moves the clock
 * and runs the timers that fall due, and after each the frames waiting for the input at hand are painted, as Node
 * runs setImmediate callbacks after a turn's input.
 */
function loop() {
  let now = 0;
  const timers = new Set<{ at: number; run: () => void }>();
  const afterInput = new Set<() => void>();
  const runAfterInput = () => {
    const waiting = [...afterInput];
    afterInput.clear();
    waiting.forEach((run) => run());
  };
  const timing: FrameTiming = {
    now: () => now,
    after(ms, run) {
      const timer = { at: now + ms, run };
      timers.add(timer);
      return () => timers.delete(timer);
    },
    afterInput(run) {
      afterInput.add(run);
      return () => afterInput.delete(run);
    },
  };
  return {
    timing,
    /** One turn: the timers that are due run first (Node's order), then this turn's input, then the check phase. */
    turn(read: () => void = () => undefined) {
      for (const timer of [...timers].filter((t) => t.at <= now)) {
        timers.delete(timer);
        timer.run();
      }
      read();
      runAfterInput();
    },
    advance(ms: number) {
      now += ms;
    },
  };
}

function scheduled(events: { value: string }) {
  const fake = loop();
  const painted: string[] = [];
  const scheduler = new RenderScheduler(() => painted.push(events.value), fake.timing);
  return { fake, painted, scheduler };
}

describe('the render scheduler', () => {
  it('paints an idle screen in the turn that asked, once that turn’s input is handled', () => {
    const state = { value: '' };
    const { fake, painted, scheduler } = scheduled(state);
    fake.turn(() => {
      state.value = 'a';
      scheduler.request();
      state.value = 'ab';
      scheduler.request();
    });
    expect(painted).toEqual(['ab']);
    expect(scheduler.frames).toBe(1);
  });

  it('paints a busy screen at most once a frame, however many changes ask', () => {
    const state = { value: '' };
    const { fake, painted, scheduler } = scheduled(state);
    fake.turn(() => scheduler.request());
    for (let index = 1; index <= 10; index++) {
      fake.advance(1);
      fake.turn(() => {
        state.value = `delta ${index}`;
        scheduler.request();
      });
    }
    expect(painted).toEqual(['']);
    fake.advance(FRAME_MS - 10);
    fake.turn();
    expect(painted).toEqual(['', 'delta 10']);
  });

  it('paints a frame that falls due after the input read in that turn, so a last delta in flight is in it', () => {
    const state = { value: 'start' };
    const { fake, painted, scheduler } = scheduled(state);
    fake.turn(() => scheduler.request());
    fake.advance(2);
    fake.turn(() => {
      state.value = 'w998';
      scheduler.request();
    });
    fake.advance(FRAME_MS);
    // The frame is due as this turn begins; the last delta is read in the same turn.
    fake.turn(() => (state.value = 'w999'));
    expect(painted).toEqual(['start', 'w999']);
  });

  it('paints what the user typed once the key is handled, even in the middle of a frame interval', () => {
    const state = { value: '' };
    const { fake, painted, scheduler } = scheduled(state);
    fake.turn(() => scheduler.request());
    fake.advance(3);
    fake.turn(() => {
      state.value = 'streamed';
      scheduler.request();
    });
    fake.advance(2);
    fake.turn(() => {
      state.value = 'streamed, typed x';
      scheduler.request();
      scheduler.expedite();
    });
    expect(painted).toEqual(['', 'streamed, typed x']);
    // The next streamed word waits a frame interval from the key's frame.
    fake.turn(() => scheduler.request());
    fake.advance(FRAME_MS - 1);
    fake.turn();
    expect(scheduler.frames).toBe(2);
    fake.advance(1);
    fake.turn();
    expect(scheduler.frames).toBe(3);
  });

  it('paints a screen that text streams onto at most once per stream frame, however often pieces arrive', () => {
    const state = { value: '' };
    const { fake, painted, scheduler } = scheduled(state);
    scheduler.streaming();
    fake.turn(() => scheduler.request());
    // Two pieces per stream frame: every other one shares a frame.
    for (let index = 1; index <= 8; index++) {
      fake.advance(STREAM_FRAME_MS / 2);
      fake.turn(() => {
        state.value = `piece ${index}`;
        scheduler.request();
      });
    }
    expect(painted).toEqual(['', 'piece 2', 'piece 4', 'piece 6', 'piece 8']);
  });

  it('paints the frame waiting when the stream ends at the usual pace, so its last piece is not held back', () => {
    const state = { value: '' };
    const { fake, painted, scheduler } = scheduled(state);
    const ended = scheduler.streaming();
    fake.turn(() => scheduler.request());
    fake.advance(2);
    fake.turn(() => {
      state.value = 'last piece';
      scheduler.request();
    });
    fake.advance(3);
    fake.turn(() => ended());
    fake.advance(FRAME_MS - 5);
    fake.turn();
    expect(painted).toEqual(['', 'last piece']);
    // And from then on, frames come at the usual pace.
    fake.turn(() => scheduler.request());
    fake.advance(FRAME_MS);
    fake.turn();
    expect(scheduler.frames).toBe(3);
  });

  it('paints a stream’s end at once when the usual interval has already passed', () => {
    const state = { value: '' };
    const { fake, painted, scheduler } = scheduled(state);
    const ended = scheduler.streaming();
    fake.turn(() => scheduler.request());
    fake.advance(FRAME_MS + 4);
    fake.turn(() => {
      state.value = 'last piece';
      scheduler.request();
      ended();
    });
    expect(painted).toEqual(['', 'last piece']);
  });

  it('paints what the user typed at once while text streams', () => {
    const state = { value: '' };
    const { fake, painted, scheduler } = scheduled(state);
    scheduler.streaming();
    fake.turn(() => scheduler.request());
    fake.advance(1);
    fake.turn(() => {
      state.value = 'typed x';
      scheduler.request();
      scheduler.expedite();
    });
    expect(painted).toEqual(['', 'typed x']);
  });

  it('keeps the stream pace until the last of overlapping streams ends, each end counted once', () => {
    const { fake, scheduler } = scheduled({ value: '' });
    const answer = scheduler.streaming();
    const output = scheduler.streaming();
    answer();
    answer();
    fake.turn(() => scheduler.request());
    fake.turn(() => scheduler.request());
    fake.advance(FRAME_MS);
    fake.turn();
    expect(scheduler.frames).toBe(1);
    output();
    fake.turn();
    expect(scheduler.frames).toBe(2);
  });

  it('paints nothing for a key that asked for no frame', () => {
    const { fake, painted, scheduler } = scheduled({ value: 'idle' });
    fake.turn(() => scheduler.expedite());
    fake.advance(FRAME_MS);
    fake.turn();
    expect(painted).toEqual([]);
  });

  it('paints at once on flush and drops the frame it had scheduled', () => {
    const state = { value: 'one' };
    const { fake, painted, scheduler } = scheduled(state);
    scheduler.request();
    scheduler.flush();
    fake.advance(FRAME_MS);
    fake.turn();
    expect(painted).toEqual(['one']);
  });

  it('paints nothing once stopped, not even the frame it had scheduled', () => {
    const state = { value: 'one' };
    const { fake, painted, scheduler } = scheduled(state);
    fake.turn(() => scheduler.request());
    fake.turn(() => scheduler.request());
    scheduler.stop();
    fake.advance(FRAME_MS);
    fake.turn(() => scheduler.request());
    scheduler.flush();
    expect(painted).toEqual(['one']);
  });
});
