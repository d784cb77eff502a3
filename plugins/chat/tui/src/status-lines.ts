import type { ModelWait, StorageStatus } from '@pi/chat';
import type { TuiTheme } from '@pi/plugin-api';

/** A `waiting` value and when this client received it: it counts the seconds on with its own clock. */
export interface ReceivedWait {
  readonly wait: ModelWait;
  readonly receivedAt: number;
}

export interface StatusInput {
  readonly running: string | null;
  readonly spinner: string;
  readonly storage: StorageStatus;
  readonly waiting: ReceivedWait | null;
  /** This client's clock, in the unit of `receivedAt` (ms). */
  readonly now: number;
  /** When this client saw the running run start, on the same clock; null when it did not. */
  readonly runStartedAt?: number | null;
  /** True while a question or a permission of the session waits for this user's answer. */
  readonly answering?: boolean;
  readonly theme: TuiTheme;
  readonly keyHint: (action: string) => string;
}

/** Whole seconds the model has been silent, as this client counts them. */
export function silentSeconds(waiting: ReceivedWait, now: number): number {
  return Math.floor((waiting.wait.silentMs + Math.max(0, now - waiting.receivedAt)) / 1000);
}

/**
 * The chat's status lines: the session file's fault whenever there is one (nothing can be recorded until it
 * clears), and while a run is in progress what it does — waiting for the user's answer, waiting on a silent model,
 * counting the seconds, or working.
 */
export function statusLines(input: StatusInput): string[] {
  const { theme, storage, running, waiting } = input;
  const lines: string[] = [];
  if (storage.fault !== null)
    lines.push(
      `${theme.fg('error', `✗ ${storage.fault.message}`)}` +
        theme.fg('dim', ' · sends are refused until it can be written; the next one tries again'),
    );
  if (running === null) return lines;
  if (input.answering === true) {
    // The run stands still on the user: no spinner, and Esc belongs to the dialog.
    lines.push(`${theme.fg('warning', '?')} ${theme.fg('muted', 'waiting for your answer')}`);
    return lines;
  }
  const spinner = theme.fg('accent', input.spinner);
  const hints = theme.fg(
    'dim',
    ` · ${input.keyHint('submit')} steers · ${input.keyHint('followUp')} queues a follow-up`,
  );
  const waited = waiting !== null && waiting.wait.operationId === running ? silentSeconds(waiting, input.now) : null;
  const elapsed =
    input.runStartedAt === null || input.runStartedAt === undefined
      ? ''
      : ` ${Math.max(0, Math.floor((input.now - input.runStartedAt) / 1000))}s`;
  const doing =
    waited === null ? `working…${elapsed} · esc to interrupt` : `waiting for the model… ${waited}s · esc to interrupt`;
  lines.push(`${spinner} ${theme.fg('muted', doing)}${hints}`);
  return lines;
}
