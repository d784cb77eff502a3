import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';

/**
 * A batch is written once it holds this many frames: with no limit, a hundred calls in flight turn into a
 * ping-pong of whole batches, each side idle while the other works (0.41x raw ws in `bench:rpc`); 16 keeps both
 * ends busy (0.75x), 1 and 4 were slower, 8 and 32 about the same.
 */
export const BATCH_FRAMES = 16;

/**
 * Frames sent in one turn of the event loop leave in one write. `ws` writes each frame (header and payload) with
 * its own `writev` system call, which was a fifth of a call's CPU; a hundred calls in flight, or a hundred replies
 * resolved by one read, cost a hundred of them. Corking the connection's stream until the current tick's work
 * (its promise jobs included) is done, or until `BATCH_FRAMES` are held, hands them to the kernel together and
 * delays none of them past that tick.
 *
 * `ws` keeps the stream as `_socket`, undocumented but unchanged since ws 1.x; without it (another socket kind)
 * frames are sent as they are.
 */
export function batchWrites(socket: WebSocket): (data: string) => void {
  const send = socket.send.bind(socket);
  let corked = 0;
  const uncork = () => {
    if (corked === 0) return;
    corked = 0;
    streamOf(socket)?.uncork();
  };
  return (data) => {
    if (corked === 0) {
      const stream = streamOf(socket);
      if (stream !== undefined) {
        stream.cork();
        corked = 1;
        process.nextTick(uncork);
      }
    } else corked += 1;
    send(data);
    if (corked >= BATCH_FRAMES) uncork();
  };
}

function streamOf(socket: WebSocket): Socket | undefined {
  const stream = (socket as unknown as { _socket?: Socket | null })._socket;
  return stream !== null && stream !== undefined && !stream.destroyed ? stream : undefined;
}
