import { DIALOG_ARMING_MS } from '@pi/host-tui';

const INTERVAL_MS = 25;

/**
 * Polls `check` until it returns a value other than `undefined`, at most `attempts` times. The bound is a number of
 * attempts, not a deadline: the test's own timeout is the safety net, and no test asserts on how long it took.
 */
export async function pollUntil<T>(
  check: () => T | undefined | Promise<T | undefined>,
  describeFailure: () => string,
  attempts = 1600,
): Promise<T> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, INTERVAL_MS));
  }
  throw new Error(describeFailure());
}

/** Whether a process with this pid still exists (signal 0 probes without sending anything). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Waits out a dialog's arming delay: Enter and typed keys that reach a dialog sooner after it opened are taken as
 * the user's earlier typing and dropped. Called once the dialog is on screen, so it opened before this wait began.
 */
export function afterDialogArming(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, DIALOG_ARMING_MS + 50));
}
