import { existsSync, watch } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * Names the file that appears once the type check of the batch the tests run in has finished. The batch's tests run
 * in vitest workers (other processes), so the signal is a file; the variable is set in the batch process before the
 * workers start, which inherit it.
 */
export const BATCH_TYPECHECK_DONE = 'PI_BATCH_TYPECHECK_DONE';

/** The signal of one batch: `finish` when its type check has answered; disposing removes it. */
export interface BatchTypecheck extends AsyncDisposable {
  finish(): Promise<void>;
}

/**
 * Announces to the tests of this batch that a type check runs beside them (it writes every project's declarations
 * into `dist/out-tsc`), so that a test that builds from those declarations waits for it instead of running a second
 * `tsc --build` into the same folder at the same time. Without an announcement (`announce: false`) the variable is
 * cleared: a batch inside a test of another batch (the generator's fixture workspace) inherits the outer one's.
 * Disposing puts back the value the variable had.
 */
export async function announceBatchTypecheck(announce: boolean): Promise<BatchTypecheck> {
  const outer = process.env[BATCH_TYPECHECK_DONE];
  const restore = (own: string | undefined) => {
    if (process.env[BATCH_TYPECHECK_DONE] !== own) return;
    if (outer === undefined) delete process.env[BATCH_TYPECHECK_DONE];
    else process.env[BATCH_TYPECHECK_DONE] = outer;
  };
  if (!announce) {
    delete process.env[BATCH_TYPECHECK_DONE];
    return { finish: async () => undefined, [Symbol.asyncDispose]: async () => restore(undefined) };
  }
  const dir = await mkdtemp(join(tmpdir(), 'pi-batch-typecheck-'));
  const file = join(dir, 'done');
  process.env[BATCH_TYPECHECK_DONE] = file;
  return {
    finish: () => writeFile(file, ''),
    async [Symbol.asyncDispose]() {
      restore(file);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Resolves once the type check of the batch running this test has finished, passed or not; at once when the test
 * runs in no such batch (alone, or in a run without a type check) or the batch is over.
 */
export function batchTypecheckFinished(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const file = env[BATCH_TYPECHECK_DONE];
  if (file === undefined || file === '') return Promise.resolve();
  return new Promise((resolve) => {
    const over = () => existsSync(file) || !existsSync(dirname(file));
    let watcher: ReturnType<typeof watch>;
    try {
      // Watching before looking, so that a file written in between is not missed.
      watcher = watch(dirname(file), () => {
        if (!over()) return;
        watcher.close();
        resolve();
      });
    } catch {
      resolve(); // The folder is gone: the batch has ended.
      return;
    }
    watcher.on('error', () => {
      watcher.close();
      resolve();
    });
    if (over()) {
      watcher.close();
      resolve();
    }
  });
}
