import { describe, expect, it } from 'vitest';
import { AppendQueue } from './append-queue';
import { createDeferred } from './deferred';

describe('AppendQueue', () => {
  it('runs writes one at a time, in the order they were enqueued', async () => {
    const queue = new AppendQueue();
    const log: string[] = [];
    const first = createDeferred<void>();
    const a = queue.enqueue(async () => {
      log.push('start a');
      await first.promise;
      log.push('end a');
    });
    const b = queue.enqueue(async () => {
      log.push('b');
    });
    await Promise.resolve();
    expect(log).toEqual(['start a']);
    first.resolve();
    await Promise.all([a, b]);
    expect(log).toEqual(['start a', 'end a', 'b']);
  });

  it('gives each caller its own write’s failure, and still runs the writes after it (the file decides on them)', async () => {
    const queue = new AppendQueue();
    const ran: string[] = [];
    const failed = queue.enqueue(async () => {
      throw new Error('ENOSPC');
    });
    const later = queue.enqueue(async () => {
      ran.push('later');
    });
    await expect(failed).rejects.toThrow('ENOSPC');
    await later;
    expect(ran).toEqual(['later']);
  });

  it('lets queued writes finish on close and refuses new ones', async () => {
    const queue = new AppendQueue();
    const ran: string[] = [];
    const queued = queue.enqueue(async () => {
      ran.push('queued');
    });
    const closed = queue.close('closed for the test');
    await expect(queue.enqueue(async () => undefined)).rejects.toThrow('closed for the test');
    await closed;
    await queued;
    expect(ran).toEqual(['queued']);
  });
});
