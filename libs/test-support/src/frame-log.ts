import type { WireSocket } from '@pi/transport-trpc';

/** Every frame a client socket sent and received, as text, for tests that inspect the wire. */
export interface FrameLog {
  readonly sent: string[];
  readonly received: string[];
}

/** The same socket, with every frame in both directions copied into `frames`. */
export function recordFrames(socket: WireSocket, frames: FrameLog): WireSocket {
  socket.onMessage((data) => frames.received.push(data));
  return {
    send(data) {
      frames.sent.push(data);
      socket.send(data);
    },
    close: (code, reason) => socket.close(code, reason),
    // What the socket can do besides, passed through: a client terminates a silent host, tests pause reading.
    ...(socket.terminate === undefined ? {} : { terminate: () => socket.terminate?.() }),
    ...(socket.pause === undefined ? {} : { pause: () => socket.pause?.() }),
    ...(socket.resume === undefined ? {} : { resume: () => socket.resume?.() }),
    onOpen: (listener) => socket.onOpen(listener),
    onMessage: (listener) => socket.onMessage(listener),
    onClose: (listener) => socket.onClose(listener),
  };
}
