import type { HarnessEvent, SessionFileFault } from '@pi/agent';
import type { ModelWait, StorageStatus } from '@pi/chat';
import type { Context } from '@pi/context';
import type { MutableRemoteState } from '@pi/remote';

/** The harness's session file fault as the `storage` cell's JSON (the path is in the message; the cause beside it). */
export function storageOf(fault: SessionFileFault | null): StorageStatus {
  return { fault: fault === null ? null : { code: fault.code, message: fault.message, cause: fault.cause } };
}

/**
 * Keeps `storage` equal to the session file's fault and `waiting` equal to the model's silence, one set per change.
 * A settled run waits for nothing, whatever the last notice said.
 */
export function statusProjection(
  storage: MutableRemoteState<StorageStatus>,
  waiting: MutableRemoteState<ModelWait | null>,
): (event: HarnessEvent, source: Context) => void {
  return (event, source) => {
    switch (event.type) {
      case 'session_file_fault':
        storage.set(storageOf(event.fault), source);
        return;
      case 'model_waiting':
        waiting.set(
          event.silentMs === null ? null : { operationId: event.operationId, silentMs: event.silentMs },
          source,
        );
        return;
      case 'run_settled':
        if (waiting.value?.operationId === event.operationId) waiting.set(null, source);
        return;
      default:
        return;
    }
  };
}
