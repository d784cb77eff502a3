import { initTRPC } from '@trpc/server';
import type { ConnectionEndpoint } from '@pi/remote';
import { formatError } from './error-format';
import { wireTransformer } from './wire-transformer';

/** What every procedure sees: the endpoint of the connection it arrived on, built once per connection. */
export interface HostRequestContext {
  readonly endpoint: ConnectionEndpoint;
}

export const t = initTRPC.context<HostRequestContext>().create({
  transformer: wireTransformer,
  isDev: false,
  isServer: true,
  errorFormatter: formatError,
});
