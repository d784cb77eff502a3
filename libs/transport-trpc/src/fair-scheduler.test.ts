import { describe, expect, it } from 'vitest';
import { FairScheduler } from './fair-scheduler';

/** One turn of the scheduler (it takes its turns with `setImmediate`). */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** A lane that records what it started, and a source that records pauses and resumes. */
function recordingLane(scheduler: FairScheduler, name: string, log: string[]) {
  const source = { paused: 0, resumed: 0, pause: () => source.paused++, resume: () => source.resumed++ };
  const lane = scheduler.lane<number>((request) => log.push(`${name}${request}`), source);
  return { lane, source };
}

describe('FairScheduler', () => {
  it('starts a connection’s requests at once while it is within its share of the turn', () => {
    const log: string[] = [];
    const { lane } = recordingLane(new FairScheduler(3), 'a', log);
    for (const request of [1, 2, 3]) lane.submit(request);
    expect(log).toEqual(['a1', 'a2', 'a3']);
    expect(lane.waiting).toBe(0);
  });

  it('holds the requests past the share for the next turn, and starts them in order', async () => {
    const log: string[] = [];
    const { lane } = recordingLane(new FairScheduler(2), 'a', log);
    for (const request of [1, 2, 3, 4, 5]) lane.submit(request);
    expect(log).toEqual(['a1', 'a2']);
    await nextTurn();
    expect(log).toEqual(['a1', 'a2', 'a3', 'a4']);
    await nextTurn();
    expect(log).toEqual(['a1', 'a2', 'a3', 'a4', 'a5']);
  });

  it('each turn renews a connection’s share, and what the turn started counts against it', async () => {
    const log: string[] = [];
    const { lane } = recordingLane(new FairScheduler(2), 'a', log);
    for (const request of [1, 2, 3]) lane.submit(request);
    await nextTurn();
    // a3 started in the turn, which left one start of the share: a4 goes at once, a5 and a6 wait.
    for (const request of [4, 5, 6]) lane.submit(request);
    expect(log).toEqual(['a1', 'a2', 'a3', 'a4']);
    await nextTurn();
    expect(log).toEqual(['a1', 'a2', 'a3', 'a4', 'a5', 'a6']);
  });

  it('a connection whose requests come one event-loop turn apart starts every one at once, past its share', async () => {
    const log: string[] = [];
    const { lane, source } = recordingLane(new FairScheduler(2), 'a', log);
    for (let request = 1; request <= 7; request++) {
      lane.submit(request);
      expect(log).toHaveLength(request);
      expect(lane.waiting).toBe(0);
      await nextTurn();
    }
    expect(source.paused).toBe(0);
  });

  it('a connection that floods does not delay another: the other’s request starts before the flood’s next share', async () => {
    const log: string[] = [];
    const scheduler = new FairScheduler(2);
    const flood = recordingLane(scheduler, 'f', log);
    const bystander = recordingLane(scheduler, 'b', log);
    for (let request = 1; request <= 1000; request++) flood.lane.submit(request);
    bystander.lane.submit(1);
    expect(log).toEqual(['f1', 'f2', 'b1']);
    expect(flood.lane.waiting).toBe(998);
  });

  it('connections with waiting requests take turns, a share each', async () => {
    const log: string[] = [];
    const scheduler = new FairScheduler(2);
    const first = recordingLane(scheduler, 'a', log);
    const second = recordingLane(scheduler, 'b', log);
    for (let request = 1; request <= 6; request++) first.lane.submit(request);
    for (let request = 1; request <= 4; request++) second.lane.submit(request);
    expect(log).toEqual(['a1', 'a2', 'b1', 'b2']);
    await nextTurn();
    expect(log.slice(4)).toEqual(['a3', 'a4', 'b3', 'b4']);
    await nextTurn();
    expect(log.slice(8)).toEqual(['a5', 'a6']);
  });

  it('stops reading a connection once a turn’s worth of its requests waits, and reads again when it caught up', async () => {
    const log: string[] = [];
    const { lane, source } = recordingLane(new FairScheduler(2), 'a', log);
    lane.submit(1);
    lane.submit(2);
    lane.submit(3);
    expect(source.paused).toBe(0);
    lane.submit(4);
    expect(source).toMatchObject({ paused: 1, resumed: 0 });
    lane.submit(5);
    expect(source.paused).toBe(1);
    await nextTurn();
    expect(source.resumed).toBe(0);
    await nextTurn();
    expect(log).toHaveLength(5);
    expect(source).toMatchObject({ paused: 1, resumed: 1 });
  });

  it('a closed connection starts nothing more, and what it had waiting is dropped', async () => {
    const log: string[] = [];
    const { lane } = recordingLane(new FairScheduler(1), 'a', log);
    lane.submit(1);
    lane.submit(2);
    lane.close();
    lane.submit(3);
    await nextTurn();
    expect(log).toEqual(['a1']);
    expect(lane.waiting).toBe(0);
  });

  it('keeps a long flood in order across many turns', async () => {
    const started: number[] = [];
    const lane = new FairScheduler(64).lane<number>((request) => started.push(request));
    for (let request = 0; request < 10_000; request++) lane.submit(request);
    while (lane.waiting > 0) await nextTurn();
    expect(started).toEqual(Array.from({ length: 10_000 }, (_, index) => index));
  });

  it('with an infinite share every request starts as it comes, as without a scheduler', () => {
    const started: number[] = [];
    const lane = new FairScheduler(Number.POSITIVE_INFINITY).lane<number>((request) => started.push(request));
    for (let request = 0; request < 10_000; request++) lane.submit(request);
    expect(started).toHaveLength(10_000);
  });
});
