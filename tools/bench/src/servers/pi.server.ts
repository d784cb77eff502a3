import { BACKGROUND_CONTEXT } from '@pi/context';
import { ServiceRegistry, createRemoteState } from '@pi/remote';
import { createRpcHost, listenWebSocket, tokenAuthentication } from '@pi/transport-trpc';
import { bulkValue, fanoutValue } from '../payload';
import { BenchBulk, BenchEcho, BenchFanout } from '../pi-services';
import { PI_TOKEN } from '../pi-token';
import { serveBench } from '../server-harness';

/** pi's own host: the product's registry, router, endpoint and listener, exactly as an app wires them. */
await serveBench(async (listenOn) => {
  const registry = new ServiceRegistry();
  registry.provide(BenchEcho, { echo: async (value) => value });
  const cell = createRemoteState(fanoutValue(0));
  registry.provide(BenchFanout, { cell });
  registry.provide(BenchBulk, { bulk: createRemoteState(bulkValue()) });
  const host = createRpcHost({
    registry,
    authenticate: tokenAuthentication(PI_TOKEN, { principal: 'bench', claims: {} }),
    keepAlive: false,
  });
  const listened = await listenWebSocket(host, 'socketPath' in listenOn ? listenOn : { port: 0 });
  if (listened.isErr()) throw new Error(listened.error.message);
  const listener = listened.value;
  return {
    url: listener.url,
    publish: (round) => cell.set(fanoutValue(round), BACKGROUND_CONTEXT),
    queuedBytes: () => Math.max(0, ...host.outboundStats().map((stats) => stats.queuedBytes)),
    close: async () => {
      host.close();
      await listener.close();
    },
  };
});
