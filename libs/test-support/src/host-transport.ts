import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CLOSE_CODES,
  listenWebSocket,
  loopbackFactory,
  webSocketFactory,
  type RpcHost,
  type SocketFactory,
  type WebSocketListener,
  type WireSocket,
} from '@pi/transport-trpc';
import { recordFrames, type FrameLog } from './frame-log';
import type { TransportKind } from './rpc-fixture';

/**
 * A host served over one transport that a test can take off the network and bring back, and whose client
 * sockets it can open and write to directly (for forged frames and custom connection params).
 */
export interface HostTransport {
  /** Opens a client socket to the host; each one records its frames in `frames`. */
  readonly socketFactory: SocketFactory;
  readonly frames: FrameLog;
  /** How many client sockets were opened so far (connection attempts). */
  readonly attempts: number;
  /** The server goes away: live connections drop and new attempts fail until `restore`. */
  stop(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

export async function serveHost(
  kind: TransportKind,
  host: RpcHost,
  options: { maxPayload?: number } = {},
): Promise<HostTransport> {
  const server =
    kind === 'loopback'
      ? switchableLoopback(host, options.maxPayload)
      : await switchableWebSocket(host, options.maxPayload);
  const frames: FrameLog = { sent: [], received: [] };
  let attempts = 0;
  const close = async () => server.close();
  return {
    socketFactory: () => {
      attempts += 1;
      return recordFrames(server.factory(), frames);
    },
    frames,
    get attempts() {
      return attempts;
    },
    stop: () => server.stop(),
    restore: () => server.restore(),
    close,
    [Symbol.asyncDispose]: close,
  };
}

interface SwitchableServer {
  readonly factory: SocketFactory;
  stop(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** A real listener on a Unix socket; stopping closes it (terminating its clients), restoring listens again. */
async function switchableWebSocket(host: RpcHost, maxPayload: number | undefined): Promise<SwitchableServer> {
  const directory = await mkdtemp(join(tmpdir(), 'pi-host-'));
  const socketPath = join(directory, 'rpc.sock');
  let listener: WebSocketListener | undefined;
  const listen = async () => {
    const listened = await listenWebSocket(host, { socketPath }, { maxPayload });
    if (listened.isErr()) throw new Error(listened.error.message);
    listener = listened.value;
  };
  const stop = async () => {
    await listener?.close();
    listener = undefined;
  };
  await listen();
  return {
    factory: webSocketFactory({ socketPath }),
    stop,
    restore: listen,
    close: async () => {
      await stop();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** The in-process transport with an off switch: while off, every attempt closes as an unreachable server would. */
function switchableLoopback(host: RpcHost, maxPayload: number | undefined): SwitchableServer {
  const inner = loopbackFactory(host, { maxPayload });
  const live = new Set<WireSocket>();
  let down = false;
  const stop = async () => {
    down = true;
    for (const socket of [...live]) socket.close(CLOSE_CODES.goingAway, 'server stopped');
  };
  return {
    factory: () => {
      if (down) return unreachableSocket();
      const socket = inner();
      live.add(socket);
      socket.onClose(() => live.delete(socket));
      return socket;
    },
    stop,
    restore: async () => {
      down = false;
    },
    close: stop,
  };
}

/** A socket that never opens: it reports an abnormal close (1006) once its listeners are attached. */
function unreachableSocket(): WireSocket {
  const listeners: Array<(code: number, reason: string) => void> = [];
  setTimeout(() => {
    for (const listener of listeners) listener(1006, '');
  }, 0);
  return {
    send: () => {
      throw new Error('The socket is not open');
    },
    close: () => undefined,
    onOpen: () => undefined,
    onMessage: () => undefined,
    onClose: (listener) => listeners.push(listener),
  };
}
