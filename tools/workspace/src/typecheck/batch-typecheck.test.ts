import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { announceBatchTypecheck, BATCH_TYPECHECK_DONE, batchTypecheckFinished } from './batch-typecheck';

/** Whether the promise is still pending after the event loop has run what was due (file events included). */
async function pending(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(() => (settled = true));
  for (let turn = 0; turn < 10; turn++) await new Promise((resolve) => setImmediate(resolve));
  return !settled;
}

describe("a test waiting for its batch's type check", () => {
  // These tests run inside `npm test`'s own batch, whose variable the worker's later files may need.
  // vitest puts back the value the variable had at the stub, whatever the code under test set since.
  beforeEach(() => void vi.stubEnv(BATCH_TYPECHECK_DONE, process.env[BATCH_TYPECHECK_DONE]));
  afterEach(() => void vi.unstubAllEnvs());

  it('goes on at once in no batch that type-checks', async () => {
    await expect(batchTypecheckFinished({})).resolves.toBeUndefined();
    await expect(batchTypecheckFinished({ [BATCH_TYPECHECK_DONE]: '' })).resolves.toBeUndefined();
  });

  it('waits until the announced type check has finished, then goes on', async () => {
    const typecheck = await announceBatchTypecheck(true);
    const waiting = batchTypecheckFinished();
    expect(await pending(waiting)).toBe(true);
    await typecheck.finish();
    await expect(waiting).resolves.toBeUndefined();
    // One that asks afterwards goes on at once.
    await expect(batchTypecheckFinished()).resolves.toBeUndefined();
    await typecheck[Symbol.asyncDispose]();
  });

  it('goes on when the batch is over, its signal removed', async () => {
    const typecheck = await announceBatchTypecheck(true);
    const env = { ...process.env };
    const file = env[BATCH_TYPECHECK_DONE] ?? '';
    const waiting = batchTypecheckFinished(env);
    await typecheck[Symbol.asyncDispose]();
    await expect(waiting).resolves.toBeUndefined();
    expect(existsSync(dirname(file))).toBe(false);
    await expect(batchTypecheckFinished(env)).resolves.toBeUndefined();
  });

  it("a batch without a type check hides an outer batch's signal, and puts it back when done", async () => {
    process.env[BATCH_TYPECHECK_DONE] = '/outer/batch/done';
    const inner = await announceBatchTypecheck(false);
    expect(process.env[BATCH_TYPECHECK_DONE]).toBeUndefined();
    await inner[Symbol.asyncDispose]();
    expect(process.env[BATCH_TYPECHECK_DONE]).toBe('/outer/batch/done');

    const announced = await announceBatchTypecheck(true);
    expect(process.env[BATCH_TYPECHECK_DONE]).not.toBe('/outer/batch/done');
    await announced[Symbol.asyncDispose]();
    expect(process.env[BATCH_TYPECHECK_DONE]).toBe('/outer/batch/done');
  });
});
