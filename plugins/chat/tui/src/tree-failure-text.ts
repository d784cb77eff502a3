import { TREE_ERROR_CODES, type TreeErrorCode } from '@pi/chat';
import { RemoteError } from '@pi/plugin-api';

/** Codes of the host and transport a tree command can meet besides the Tree service's own. */
const OTHER_CODES = {
  unknown_service: 'unknown_service',
  disconnected: 'disconnected',
  not_authorized: 'not_authorized',
} as const;
type OtherCode = (typeof OTHER_CODES)[keyof typeof OTHER_CODES];
type KnownCode = TreeErrorCode | OtherCode;

const KNOWN: ReadonlySet<string> = new Set([...Object.values(TREE_ERROR_CODES), ...Object.values(OTHER_CODES)]);

/** One line for a notice: the known codes in words, any other failure with its message and code. */
export function treeFailureText(failure: unknown): string {
  if (!(failure instanceof RemoteError)) return failure instanceof Error ? failure.message : String(failure);
  // Its message names the session file and the cause: nothing shorter says what to do about it.
  if (failure.code === TREE_ERROR_CODES.session_file_unwritable) return failure.message;
  return KNOWN.has(failure.code) ? words(failure.code as KnownCode) : `${failure.message} (${failure.code})`;
}

function words(code: KnownCode): string {
  switch (code) {
    case 'busy':
      return 'a run is in progress: esc interrupts it, or wait until it ends';
    case 'unknown_entry':
      return 'that message is not in this session any more';
    case 'not_resting_point':
      return 'that message is inside a run that has not ended';
    case 'unknown_service':
      return 'this session does not serve the session tree';
    case 'disconnected':
      return 'the session is not connected';
    case 'not_authorized':
      return 'this client may not change the session';
    case 'session_file_unwritable':
      return 'the session file cannot be written';
  }
}
