import { isJsonValue, type JsonValue } from '@pi/json';
import { MAX_ERROR_MESSAGE_LENGTH, clipForError } from './error-text';

/** The stable codes every host and client agree on; services may add their own snake_case codes. */
export const REMOTE_ERROR_CODES = {
  cancelled: 'cancelled',
  disconnected: 'disconnected',
  unknown_service: 'unknown_service',
  unknown_member: 'unknown_member',
  invalid_argument: 'invalid_argument',
  invalid_result: 'invalid_result',
  stale_reference: 'stale_reference',
  not_authorized: 'not_authorized',
  limit_exceeded: 'limit_exceeded',
  timeout: 'timeout',
  no_handler: 'no_handler',
  unavailable: 'unavailable',
  internal: 'internal',
} as const;

export type RemoteErrorCode = (typeof REMOTE_ERROR_CODES)[keyof typeof REMOTE_ERROR_CODES];

const SERVICE_CODE = /^[a-z][a-z0-9_]{0,63}$/;

/** The wire envelope of every error: no stack, no cause, nothing but these three fields. */
export interface RemoteErrorEnvelope {
  code: string;
  message: string;
  data?: JsonValue;
}

/** Marks a RemoteError of any copy of this library: a plugin that bundles its own copy throws errors the host
 *  must still recognise. A symbol-keyed property can never come out of a decoded frame. */
const REMOTE_ERROR_BRAND = Symbol.for('@pi/remote.error.v1');

/**
 * The one error type that crosses a connection. Services throw it for expected failures with a
 * stable code; anything else thrown by a service becomes `internal` with a generic message.
 */
export class RemoteError extends Error {
  override readonly name = 'RemoteError';
  readonly code: string;

  /** `instanceof RemoteError` holds for a RemoteError of any copy of the library (see the brand). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return (
      typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[REMOTE_ERROR_BRAND] === true
    );
  }

  readonly data: JsonValue | undefined;

  constructor(code: RemoteErrorCode | (string & {}), message: string, data?: JsonValue) {
    // A message that interpolates a caller's value unquoted must not make the error frame as big as the input.
    super(clipForError(message, MAX_ERROR_MESSAGE_LENGTH));
    this.code = SERVICE_CODE.test(code) ? code : REMOTE_ERROR_CODES.internal;
    // Data crosses the wire as is, so anything but strict JSON is dropped here rather than half-serialized there.
    this.data = data !== undefined && isJsonValue(data) ? data : undefined;
  }

  toEnvelope(): RemoteErrorEnvelope {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }

  static fromEnvelope(envelope: RemoteErrorEnvelope): RemoteError {
    return new RemoteError(envelope.code, envelope.message, envelope.data);
  }
}

Object.defineProperty(RemoteError.prototype, REMOTE_ERROR_BRAND, { value: true });

export function isRemoteError(value: unknown): value is RemoteError {
  return value instanceof RemoteError;
}

/** Any thrown value as the error a peer may see: a RemoteError as is, anything else as `internal`. */
export function toRemoteError(cause: unknown): RemoteError {
  if (cause instanceof RemoteError) return cause;
  // A service's own deadline (AbortSignal.timeout) is a timeout, not a cancel the caller never made.
  if (errorName(cause) === 'TimeoutError')
    return new RemoteError(REMOTE_ERROR_CODES.timeout, 'The operation timed out');
  if (errorName(cause) === 'AbortError') return new RemoteError(REMOTE_ERROR_CODES.cancelled, 'The call was cancelled');
  return new RemoteError(REMOTE_ERROR_CODES.internal, 'Internal error');
}

export function isRemoteErrorEnvelope(value: unknown): value is RemoteErrorEnvelope {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return typeof record['code'] === 'string' && typeof record['message'] === 'string';
}

function errorName(cause: unknown): unknown {
  return typeof cause === 'object' && cause !== null ? (cause as { name?: unknown }).name : undefined;
}
