import type { SessionEntry } from '@pi/agent-contract';

/** The longest client operation id a prompt may carry. */
export const MAX_CLIENT_OPERATION_ID_LENGTH = 128;

const CLIENT_OPERATION_ID = /^[A-Za-z0-9_-]+$/;

/** 1–128 characters of `[A-Za-z0-9_-]`: safe to log, to quote, and to keep in every `operation_started` line. */
export function isValidClientOperationId(id: string): boolean {
  return id.length <= MAX_CLIENT_OPERATION_ID_LENGTH && CLIENT_OPERATION_ID.test(id);
}

/** Client operation id → the run it started, for every `operation_started` in the file that carries one. */
export function clientOperations(entries: readonly SessionEntry[]): Map<string, string> {
  const runs = new Map<string, string>();
  for (const entry of entries) {
    // The first run wins: the lane never records a second one, but a hand-edited file might.
    if (
      entry.kind === 'operation_started' &&
      entry.clientOperationId !== undefined &&
      !runs.has(entry.clientOperationId)
    )
      runs.set(entry.clientOperationId, entry.operationId);
  }
  return runs;
}

/** Why a client operation id cannot name a new send: not of the allowed form, or taken by a queued message. */
export function invalidClientOperationId(
  id: string,
  queued: (id: string) => boolean,
): { code: 'invalid_message'; message: string } | null {
  if (!isValidClientOperationId(id)) {
    const message = `A client operation id is 1–${MAX_CLIENT_OPERATION_ID_LENGTH} characters of [A-Za-z0-9_-]`;
    return { code: 'invalid_message', message };
  }
  if (queued(id)) return { code: 'invalid_message', message: `${id} was already used for a queued message` };
  return null;
}
