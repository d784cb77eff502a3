import type { RemoteErrorEnvelope } from './errors';
import type { CallRequest, CallResponse, InteractionFrame, InteractionReply, Target, WatchFrame } from './protocol';
import type { RemoteState } from './state-types';

/** Where a client connection stands; the reason says why it is down. */
export type ConnectionState =
  | { readonly status: 'connecting'; readonly attempt: number }
  | { readonly status: 'connected'; readonly epoch: number }
  | { readonly status: 'disconnected'; readonly reason: RemoteErrorEnvelope; readonly retrying: boolean };

export interface WatchObserver {
  next(frame: WatchFrame): void;
  /** The watch ended for good (unknown service, stale reference, channel closed). */
  error(error: RemoteErrorEnvelope): void;
}

/**
 * What the consuming side needs from a transport. Calls reject with a RemoteError; a watch of a service
 * survives reconnects (a new snapshot arrives after each), a watch of a reference ends with the connection.
 */
export interface RemoteChannel {
  readonly connection: RemoteState<ConnectionState>;
  call(request: CallRequest, signal: AbortSignal | undefined): Promise<CallResponse>;
  watch(target: Target, observer: WatchObserver): () => void;
  release(ref: string): Promise<void>;
  /** Receives interaction requests for the given interaction ids; a new call replaces the id list. */
  serveInteractions(ids: readonly string[], onFrame: (frame: InteractionFrame) => void): () => void;
  reply(reply: InteractionReply): Promise<void>;
}
