import type { ChannelOptions } from 'birpc';
import type { WebSocket } from 'ws';

/** birpc's channel over a `ws` socket: JSON text frames both ways (birpc itself passes values as-is). */
export function birpcChannel(socket: WebSocket): ChannelOptions {
  return {
    post: (data: string) => socket.send(data),
    on: (receive) => void socket.on('message', (data) => receive(data.toString())),
    serialize: (value: unknown) => JSON.stringify(value),
    deserialize: (data: string) => JSON.parse(data),
  };
}
