import { createBirpc } from 'birpc';
import { WebSocket } from 'ws';
import { birpcChannel } from '../birpc-channel';
import type { CallPayload } from '../payload';
import type { EchoClient } from './echo-client';

/** birpc with its default options over a `ws` socket. */
export async function connectBirpc(url: string): Promise<EchoClient> {
  const socket = new WebSocket(url, { perMessageDeflate: false });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  const rpc = createBirpc<{ echo(value: CallPayload): CallPayload }>({}, birpcChannel(socket));
  return {
    echo: (payload) => rpc.echo(payload),
    close: () => {
      rpc.$close();
      socket.close();
    },
  };
}
