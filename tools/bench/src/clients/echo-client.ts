import type { CallPayload } from '../payload';

/** One connection to a system's server, reduced to what the call benchmark needs. */
export interface EchoClient {
  echo(payload: CallPayload): Promise<unknown>;
  close(): void;
}
