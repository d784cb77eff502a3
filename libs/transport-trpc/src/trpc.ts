import { initTRPC } from '@trpc/server';
import superjson from 'superjson';
import type { ConnectionEndpoint } from '@pi/remote';
import { formatError } from './error-format';

/** What every procedure sees: the endpoint of the connection it arrived on, built once per connection. */
export interface HostRequestContext {
  readonly endpoint: ConnectionEndpoint;
}

export const t = initTRPC.context<HostRequestContext>().create({
  transformer: superjson,
  isDev: false,
  isServer: true,
  errorFormatter: formatError,
});
