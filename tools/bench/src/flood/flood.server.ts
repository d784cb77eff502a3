import { ServiceRegistry, createRemoteState } from '@pi/remote';
import { DEFAULT_CONNECTION_LIMITS, createRpcHost, listenWebSocket, tokenAuthentication } from '@pi/transport-trpc';
import { fanoutValue } from '../payload';
import { BenchEcho, BenchFanout } from '../pi-services';
import { PI_TOKEN } from '../pi-token';
import { serveBench } from '../server-harness';
import { REQUESTS_PER_TURN_ENV } from './flood-protocol';

// The apps run from bundles without source maps; under tsx every error's stack would be mapped, which is not the
// product's cost (a flood of refused requests is mostly errors).
process.setSourceMapsEnabled(false);

/**
 * pi's host for the flood bench, wired as an app wires it: the bystander's echo and the fan-out cell the flooder
 * subscribes to, with the product's limits but for the share per turn the bench runs it with.
 */
await serveBench(async (listenOn) => {
  const registry = new ServiceRegistry();
  registry.provide(BenchEcho, { echo: async (value) => value });
  registry.provide(BenchFanout, { cell: createRemoteState(fanoutValue(0)) });
  const requestsPerTurn = Number(process.env[REQUESTS_PER_TURN_ENV] ?? DEFAULT_CONNECTION_LIMITS.requestsPerTurn);
  const host = createRpcHost({
    registry,
    authenticate: tokenAuthentication(PI_TOKEN, { principal: 'bench', claims: {} }),
    keepAlive: false,
    connections: { requestsPerTurn },
  });
  const listened = await listenWebSocket(host, 'socketPath' in listenOn ? listenOn : { port: 0 });
  if (listened.isErr()) throw new Error(listened.error.message);
  const listener = listened.value;
  return {
    url: listener.url,
    close: async () => {
      host.close();
      await listener.close();
    },
  };
});
