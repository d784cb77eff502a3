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
 * A lone frame is not held at all: when the previous tick sent at most one frame (calls made one at a time), the
 * first frame of a tick is written at once, so a sequential call's request and its reply leave before the rest of
 * the tick's work runs; only the frames after it in the same tick are corked. Under concurrency (the previous tick
 * sent several) the first frame waits with the others, as before, so a busy connection keeps one write per batch.
 *
 * `ws` keeps the stream as `_socket`, undocumented but unchanged since ws 1.x; without it (another socket kind)
 * frames are sent as they are.
 */
export function batchWrites(socket: WebSocket): (data: string) => void {
  const send = socket.send.bind(socket);
  /** Frames sent in this tick; 0 when none, i.e. no end of tick is scheduled. */
  let framesThisTick = 0;
  /** Frames sent in the last tick that sent any: one or none means frames come one at a time. */
  let framesLastTick = 0;
  /** Frames held in the corked stream, 0 when it is not corked. */
  let corked = 0;
  const uncork = () => {
    if (corked === 0) return;
    corked = 0;
    streamOf(socket)?.uncork();
  };
  const endTick = () => {
    framesLastTick = framesThisTick;
    framesThisTick = 0;
    uncork();
  };
  return (data) => {
    framesThisTick += 1;
    if (framesThisTick === 1) {
      process.nextTick(endTick);
      if (framesLastTick <= 1) return send(data);
    }
    if (corked === 0) {
      const stream = streamOf(socket);
      if (stream === undefined) return send(data);
      stream.cork();
    }
    corked += 1;
    send(data);
    if (corked >= BATCH_FRAMES) uncork();
  };
}

function streamOf(socket: WebSocket): Socket | undefined {
  const stream = (socket as unknown as { _socket?: Socket | null })._socket;
  return stream !== null && stream !== undefined && !stream.destroyed ? stream : undefined;
}
