import { describe, expect, it } from 'vitest';
import { iterateUntilAborted } from './abortable-iteration';

describe('iterateUntilAborted', () => {
  it('stops waiting on a source that never yields again once the signal aborts, and asks it to return', async () => {
    const controller = new AbortController();
    let returned = false;
    const stuck: AsyncIterable<number> = {
      [Symbol.asyncIterator]: () => ({
        next: () => (controller.abort(), new Promise<IteratorResult<number>>(() => undefined)),
        return: async () => ((returned = true), { done: true, value: undefined }),
      }),
    };
    expect(await iterateUntilAborted(stuck, controller.signal, () => true)).toBe('aborted');
    await Promise.resolve();
    await Promise.resolve();
    expect(returned).toBe(true);
  });

  it('feeds items until the callback says stop', async () => {
    async function* numbers() {
      yield 1;
      yield 2;
      yield 3;
    }
    const seen: number[] = [];
    const end = await iterateUntilAborted(
      numbers(),
      new AbortController().signal,
      (item) => (seen.push(item), item < 2),
    );
    expect(end).toBe('stopped');
    expect(seen).toEqual([1, 2]);
  });

  it('an abort between two items ends the iteration before the next is asked for', async () => {
    const controller = new AbortController();
    let asked = 0;
    async function* numbers() {
      for (;;) {
        asked += 1;
        yield asked;
      }
    }
    const end = await iterateUntilAborted(numbers(), controller.signal, (item) => {
      if (item === 1000) controller.abort();
      return true;
    });
    expect(end).toBe('aborted');
    expect(asked).toBe(1000);
  });

  it('a source whose step fails after the abort won leaves nothing unhandled', async () => {
    const controller = new AbortController();
    let failStep: (error: Error) => void = () => undefined;
    const failingLate: AsyncIterable<number> = {
      [Symbol.asyncIterator]: () => ({
        next: () => new Promise<IteratorResult<number>>((_resolve, reject) => (failStep = reject)),
      }),
    };
    const ended = iterateUntilAborted(failingLate, controller.signal, () => true);
    controller.abort();
    expect(await ended).toBe('aborted');
    failStep(new Error('the stream broke off after the abort'));
    await new Promise((resolve) => setImmediate(resolve));
  });

  it('rethrows a failure of the source when the signal did not abort', async () => {
    async function* failing(): AsyncGenerator<number> {
      yield 1;
      throw new Error('stream dropped');
    }
    await expect(iterateUntilAborted(failing(), new AbortController().signal, () => true)).rejects.toThrow(
      'stream dropped',
    );
  });
});
