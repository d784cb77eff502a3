import { initTRPC } from '@trpc/server';
import type { ConnectionEndpoint } from '@pi/remote';
import { formatError } from './error-format';
import type { OutboundPressure } from './outbound-pressure';
import { wireTransformer } from './wire-transformer';

/** What every procedure sees: the endpoint of the connection it arrived on, built once per connection. */
export interface HostRequestContext {
  readonly endpoint: ConnectionEndpoint;
  /** The connection's outbound pressure: watch frames wait (and coalesce) while its socket does not drain. */
  readonly pressure: OutboundPressure;
}

export const t = initTRPC.context<HostRequestContext>().create({
  transformer: wireTransformer,
  isDev: false,
  isServer: true,
  errorFormatter: formatError,
});
