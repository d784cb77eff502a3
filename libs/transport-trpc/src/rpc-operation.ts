import type { RemoteErrorEnvelope } from '@pi/remote';

/** tRPC's error shape as it arrives (after the transformer), with our envelope in `data.remote`. */
export interface ErrorShape {
  readonly code: number;
  readonly message: string;
  readonly data?: {
    readonly remote?: RemoteErrorEnvelope;
    /** tRPC's code and HTTP status of `remote.code` (see `clientErrorShape`). */
    readonly code?: string;
    readonly httpStatus?: number;
  };
}

/** One operation a link hands to the connection (`RpcConnection.request`). */
export interface Operation {
  readonly type: 'query' | 'mutation' | 'subscription';
  readonly path: string;
  /** Already transformed by the link. */
  readonly input: unknown;
  /** A persistent subscription is sent again after every reconnect; any other operation ends with the socket. */
  readonly persistent: boolean;
}

/** Where the connection reports what became of an operation. */
export interface OperationHandlers {
  data(data: unknown): void;
  started?(): void;
  error(shape: ErrorShape): void;
  complete(): void;
  /** The reply to a call sent as a compact call (`RpcConnection.call`), read by `compactOutcome`. */
  answered?(reply: readonly unknown[]): void;
}
