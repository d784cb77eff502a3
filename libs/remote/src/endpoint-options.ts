import type { Context } from '@pi/context';
import type { RemoteError } from './errors';
import type { InteractionBroker } from './interaction-broker';
import type { ServiceRegistry } from './service-registry';

/** Limits on what one connection may hold at once; past one, the request fails with `limit_exceeded`. */
export interface EndpointLimits {
  readonly maxInFlightCalls: number;
  readonly maxSubscriptions: number;
  readonly maxReferences: number;
}

export const DEFAULT_ENDPOINT_LIMITS: EndpointLimits = {
  maxInFlightCalls: 256,
  maxSubscriptions: 256,
  maxReferences: 1024,
};

export interface EndpointOptions {
  readonly registry: ServiceRegistry;
  /** The server-built context of this connection: its typed values (client id, identity), no signal. */
  readonly connectionContext: Context;
  readonly limits?: Partial<EndpointLimits>;
  /** This connection's id, as the transport assigned it. */
  readonly clientId: string;
  /** The host's interaction broker, when this host sends interactions to its clients. */
  readonly broker?: InteractionBroker;
}

/** Told when the providing side ends a watch on its own, such as when its reference is released. */
export type WatchEnd = (error: RemoteError) => void;

/** Counts of what the connection holds, for tests and diagnostics. */
export interface EndpointStats {
  readonly activeCalls: number;
  readonly subscriptions: number;
  readonly references: number;
}
