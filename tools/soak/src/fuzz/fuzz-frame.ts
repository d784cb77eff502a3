/** What the fuzzer sends, by kind; the weights say how often (`frame-generator.ts`). */
export const FUZZ_KINDS = [
  'malformed_json',
  'wrong_types',
  'huge_ids',
  'deep_nesting',
  'unknown_methods',
  'oversize',
  'random_bytes',
  'hostile_valid',
  'first_frame',
] as const;

export type FuzzKind = (typeof FUZZ_KINDS)[number];

/** One frame for a live session's WebSocket. */
export interface FuzzFrame {
  readonly kind: FuzzKind;
  /**
   * Sent as a new connection's first frame, where the connection params belong, instead of on an authenticated
   * connection.
   */
  readonly first: boolean;
  /** Text, or bytes: random bytes go as a binary frame, or as a text frame that is not UTF-8 (`binary` false). */
  readonly data: string | Uint8Array;
  readonly binary: boolean;
}

/** The session's callable paths (`<service>.<method>`) and watchable services, from its `$rpc.describe`. */
export interface FuzzTargets {
  readonly methods: readonly string[];
  readonly services: readonly string[];
}

/** The byte size of a frame's payload. */
export function frameBytes(frame: FuzzFrame): number {
  return typeof frame.data === 'string' ? Buffer.byteLength(frame.data) : frame.data.byteLength;
}
