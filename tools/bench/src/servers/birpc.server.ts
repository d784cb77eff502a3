import { createBirpc, type BirpcReturn } from 'birpc';
import { birpcChannel } from '../birpc-channel';
import { fanoutValue } from '../payload';
import type { BirpcClientFunctions, BirpcServerFunctions } from '../peer-contracts';
import { serveBench } from '../server-harness';
import { listenWss } from './ws-listen';

/**
 * birpc 4 with its defaults (a timeout per call), JSON-serialized over one `ws` socket per client. A change
 * calls each subscribed client's `onChange` as an event (`asEvent`: birpc's call that awaits no response, so no
 * pending call or timer per change).
 */
await serveBench(async (listenOn) => {
  const listening = await listenWss(listenOn);
  const subscribed = new Set<BirpcReturn<BirpcClientFunctions, BirpcServerFunctions>>();
  listening.wss.on('connection', (socket) => {
    const rpc: BirpcReturn<BirpcClientFunctions, BirpcServerFunctions> = createBirpc<
      BirpcClientFunctions,
      BirpcServerFunctions
    >(
      {
        echo: (value) => value,
        subscribe: () => void subscribed.add(rpc),
      },
      birpcChannel(socket),
    );
    socket.once('close', () => {
      subscribed.delete(rpc);
      rpc.$close();
    });
  });
  return {
    url: listening.url,
    publish(round) {
      const value = fanoutValue(round);
      for (const rpc of subscribed) void rpc.onChange.asEvent(value);
    },
    queuedBytes: () => Math.max(0, ...[...listening.wss.clients].map((client) => client.bufferedAmount)),
    close: () => listening.close(),
  };
});
