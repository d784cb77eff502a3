import { describe, expect, it } from 'vitest';
import { oneAtATime } from './one-at-a-time';

describe('one confirmation at a time', () => {
  it('gives the next turn only when the one before is released', async () => {
    const waitForTurn = oneAtATime();
    const order: string[] = [];
    const first = await waitForTurn(undefined);
    const second = waitForTurn(undefined).then((release) => {
      order.push('second');
      return release;
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(order).toEqual([]);
    if (first === false) throw new Error('no turn');
    first();
    const release = await second;
    expect(order).toEqual(['second']);
    expect(release).toBeTypeOf('function');
  });

  it('stops waiting when aborted, and passes the turn on to whoever comes next', async () => {
    const waitForTurn = oneAtATime();
    const first = await waitForTurn(undefined);
    const abort = new AbortController();
    const gaveUp = waitForTurn(abort.signal);
    const third = waitForTurn(undefined);
    abort.abort();
    expect(await gaveUp).toBe(false);
    if (first === false) throw new Error('no turn');
    first();
    expect(await third).toBeTypeOf('function');
  });

  it('does not wait at all when already aborted', async () => {
    const waitForTurn = oneAtATime();
    expect(await waitForTurn(AbortSignal.abort())).toBe(false);
    expect(await waitForTurn(undefined)).toBeTypeOf('function');
  });
});
