import { createBirpc } from 'birpc';
import { WebSocket } from 'ws';
import { birpcChannel } from '../birpc-channel';
import type { CallPayload, FanoutValue } from '../payload';
import type { BirpcClientFunctions, BirpcServerFunctions } from '../peer-contracts';
import type { EchoClient } from './echo-client';
import type { PausableSubscriber } from './subscriber';

interface EchoFunctions extends BirpcServerFunctions {
  echo(value: CallPayload): CallPayload;
}

async function open(url: string): Promise<WebSocket> {
  const socket = new WebSocket(url, { perMessageDeflate: false });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  return socket;
}

/** birpc with its default options over a `ws` socket. */
export async function connectBirpc(url: string): Promise<EchoClient> {
  const socket = await open(url);
  const rpc = createBirpc<EchoFunctions>({}, birpcChannel(socket));
  return {
    echo: (payload) => rpc.echo(payload),
    close: () => {
      rpc.$close();
      socket.close();
    },
  };
}

/** Serves `onChange` and asks the server to call it with every change. */
export async function subscribeBirpc(url: string, onValue: (value: FanoutValue) => void): Promise<PausableSubscriber> {
  const socket = await open(url);
  const rpc = createBirpc<EchoFunctions, BirpcClientFunctions>({ onChange: onValue }, birpcChannel(socket));
  await rpc.subscribe();
  return {
    pause: () => socket.pause(),
    resume: () => socket.resume(),
    close: () => {
      rpc.$close();
      socket.close();
    },
  };
}
