import type { RpcHost, ServerSocket } from '@pi/transport-trpc';

/** A host that can be made to stop answering, as a stopped or hung process would, without closing anything. */
export interface SilenceableHost {
  /** Serve this one: it is the wrapped host with every accepted socket under the switch. */
  readonly host: RpcHost;
  /** From now on nothing the host's sockets receive is read, and nothing they would send leaves. */
  silence(): void;
  /** Frames held on sockets still open are handled in order, as a resumed process reads its buffers. */
  resume(): void;
}

type Listener = (...args: unknown[]) => void;

/**
 * Wraps `host` so that every socket it accepts, over either transport, passes its incoming messages and
 * outgoing sends through one switch. The sockets stay open and their close events still arrive: only the
 * host's answers stop, which is what a client must detect by itself.
 */
export function silenceableHost(host: RpcHost): SilenceableHost {
  let silent = false;
  const held: Array<{ socket: ServerSocket; run: () => void }> = [];
  const pass = (socket: ServerSocket, run: () => void) => (silent ? held.push({ socket, run }) : run());

  const gated = (socket: ServerSocket): ServerSocket => {
    const wrap = (event: string, listener: Listener): Listener =>
      event === 'message' ? (...args) => pass(socket, () => listener(...args)) : listener;
    const wrapper = {
      get readyState() {
        return socket.readyState;
      },
      on: (event: string, listener: Listener) => (socket.on(event, wrap(event, listener)), wrapper),
      once: (event: string, listener: Listener) => (socket.once(event, wrap(event, listener)), wrapper),
      send: (data: string) => pass(socket, () => socket.send(data)),
      close: (code?: number, reason?: string) => socket.close(code, reason),
      terminate: () => socket.terminate(),
    };
    return wrapper as unknown as ServerSocket;
  };

  return {
    host: { ...host, accept: (socket, request) => host.accept(gated(socket), request) },
    silence() {
      silent = true;
    },
    resume() {
      silent = false;
      const OPEN = 1;
      for (const { socket, run } of held.splice(0)) if (socket.readyState === OPEN) run();
    },
  };
}
