import type { Socket } from 'node:net';
import type { WebSocket } from 'ws';

/**
 * Frames sent in one turn of the event loop leave in one write. `ws` writes each frame (header and payload) with
 * its own `writev` system call, which was a fifth of a call's CPU; a hundred calls in flight, or a hundred replies
 * resolved by one read, cost a hundred of them. Corking the connection's stream until the current tick's work
 * (its promise jobs included) is done hands them to the kernel together, and delays none of them past that tick.
 *
 * `ws` keeps the stream as `_socket`, undocumented but unchanged since ws 1.x; without it (another socket kind)
 * frames are sent as they are.
 */
export function batchWrites(socket: WebSocket): (data: string) => void {
  const send = socket.send.bind(socket);
  let corked = false;
  const uncork = () => {
    corked = false;
    streamOf(socket)?.uncork();
  };
  return (data) => {
    const stream = corked ? undefined : streamOf(socket);
    if (stream !== undefined) {
      stream.cork();
      corked = true;
      process.nextTick(uncork);
    }
    send(data);
  };
}

function streamOf(socket: WebSocket): Socket | undefined {
  const stream = (socket as unknown as { _socket?: Socket | null })._socket;
  return stream !== null && stream !== undefined && !stream.destroyed ? stream : undefined;
}
