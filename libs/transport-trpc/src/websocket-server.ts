import { chmod, link, mkdtemp, rm, stat, unlink } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { dirname, join } from 'node:path';
import { err, ok, type Result } from 'neverthrow';
import { WebSocketServer, type WebSocket } from 'ws';
import type { SocketAcceptor } from './server-socket';
import { isSocketAnswering, isSocketFile } from './socket-probe';
import { batchWrites } from './write-batching';

export const DEFAULT_MAX_PAYLOAD = 16 * 1024 * 1024;

export type ListenAddress =
  | { readonly socketPath: string }
  | { readonly port: number; readonly host?: string; readonly tls?: TlsIdentity };

/** A TCP listener's certificate chain and private key, PEM (read from files by the program that listens). */
export interface TlsIdentity {
  readonly cert: string | Buffer;
  readonly key: string | Buffer;
}

export interface WebSocketListener {
  /** Where it listens: the socket path, or the loopback host and the port actually bound. */
  readonly address: { readonly socketPath: string } | { readonly host: string; readonly port: number };
  readonly url: string;
  close(): Promise<void>;
}

export interface ListenError {
  readonly code: 'address_in_use' | 'listen_failed';
  readonly message: string;
}

/**
 * Serves a host over WebSocket on a Unix socket (mode 0600) or on a TCP port (loopback unless a host is named), over
 * TLS (`wss:`) when given a certificate and key. A socket file left by a dead process is replaced; one a live process
 * answers on is `address_in_use`.
 */
export async function listenWebSocket(
  host: SocketAcceptor,
  address: ListenAddress,
  options: { maxPayload?: number } = {},
): Promise<Result<WebSocketListener, ListenError>> {
  const refuse = (_request: IncomingMessage, response: ServerResponse) =>
    void response.writeHead(426).end('WebSocket only');
  const tls = 'tls' in address ? address.tls : undefined;
  let server: Server;
  try {
    server = tls === undefined ? createServer(refuse) : createTlsServer({ cert: tls.cert, key: tls.key }, refuse);
  } catch (error) {
    // A certificate or key that is not PEM, or that do not match.
    const detail = error instanceof Error ? error.message : String(error);
    return err({ code: 'listen_failed', message: `Cannot use the TLS certificate and key: ${detail}` });
  }
  const wss = new WebSocketServer({ server, maxPayload: options.maxPayload ?? DEFAULT_MAX_PAYLOAD });
  wss.on('connection', (socket, request) => {
    // Every sender of the connection (replies, watch frames, pings) shares one batch per tick.
    socket.send = batchWrites(socket) as WebSocket['send'];
    try {
      host.accept(socket, request);
    } catch (error) {
      // A bug in accepting one connection ends that connection (1011), not the process and every other connection.
      socket.close(1011, 'internal error');
      process.emitWarning(error instanceof Error ? error : String(error), { code: 'PI_ACCEPT_FAILED' });
    }
  });
  // The http server's listen errors are re-emitted here; `listen` below already turns them into values.
  wss.on('error', () => undefined);

  if ('socketPath' in address) {
    const listened = await listenOnSocket(server, address.socketPath);
    if (listened.isErr()) return err(listened.error);
    const bound = await fileIdentity(address.socketPath);
    return ok(listener(server, wss, { socketPath: address.socketPath }, `ws+unix://${address.socketPath}:/`, bound));
  }
  const hostname = address.host ?? '127.0.0.1';
  const listened = await listen(server, () => server.listen(address.port, hostname));
  if (listened.isErr()) return err(listened.error);
  const bound = server.address();
  const port = typeof bound === 'object' && bound !== null ? bound.port : address.port;
  return ok(
    listener(server, wss, { host: hostname, port }, `${tls === undefined ? 'ws' : 'wss'}://${hostname}:${port}/`),
  );
}

function listener(
  server: Server,
  wss: WebSocketServer,
  address: WebSocketListener['address'],
  url: string,
  bound?: string,
): WebSocketListener {
  return {
    address,
    url,
    close: async () => {
      for (const client of wss.clients) client.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
      // Only the socket this listener bound: one put at the path since (its folder wiped and a new host started
      // there) belongs to the new host.
      if ('socketPath' in address && bound !== undefined && (await fileIdentity(address.socketPath)) === bound)
        await unlink(address.socketPath).catch(() => undefined);
    },
  };
}

/** The device and inode of what is at `path`, or undefined when nothing is. */
async function fileIdentity(path: string): Promise<string | undefined> {
  return stat(path).then(
    ({ dev, ino }) => `${dev}:${ino}`,
    () => undefined,
  );
}

async function listenOnSocket(server: Server, socketPath: string): Promise<Result<void, ListenError>> {
  const first = await listenPrivately(server, socketPath);
  if (first.isOk() || first.error.code !== 'address_in_use') return first;
  if (await isSocketAnswering(socketPath)) {
    return err({ code: 'address_in_use', message: `Another process is listening on ${socketPath}` });
  }
  // Only a dead socket is replaced: a regular file (a mistyped --socket) is never deleted.
  if (!(await isSocketFile(socketPath)))
    return err({ code: 'address_in_use', message: `${socketPath} exists and is not a socket` });
  await unlink(socketPath).catch(() => undefined);
  return listenPrivately(server, socketPath);
}

/**
 * Binds the socket inside a new directory only this user can enter, makes it 0600 there, and only then links it to
 * its path, so no other user can ever connect to it. A process-wide umask around `listen` did the same but also
 * narrowed files other threads created meanwhile, and worker threads may not set one. `link`, unlike `rename`, never
 * replaces what is at the path: that is `address_in_use`.
 */
async function listenPrivately(server: Server, socketPath: string): Promise<Result<void, ListenError>> {
  let staging: string;
  try {
    // A short name: a Unix socket path is limited to about 107 bytes.
    staging = await mkdtemp(join(dirname(socketPath), '.l'));
  } catch (error) {
    // The temporary name means nothing to the caller: say which socket could not be made.
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return err({ code: 'listen_failed', message: `Cannot listen on ${socketPath}: ${reason}` });
  }
  const staged = join(staging, 's');
  try {
    const listened = await listen(server, () => server.listen(staged));
    if (listened.isErr()) return listened;
    await chmod(staged, 0o600);
    try {
      await link(staged, socketPath);
      return ok(undefined);
    } catch (error) {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      const code = (error as NodeJS.ErrnoException).code;
      return err(
        code === 'EEXIST'
          ? { code: 'address_in_use', message: 'The address is already in use' }
          : { code: 'listen_failed', message: (error as Error).message },
      );
    }
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

function listen(server: Server, start: () => void): Promise<Result<void, ListenError>> {
  return new Promise((resolve) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      resolve(
        err(
          error.code === 'EADDRINUSE'
            ? { code: 'address_in_use', message: 'The address is already in use' }
            : { code: 'listen_failed', message: error.message },
        ),
      );
    };
    const onListening = () => {
      server.off('error', onError);
      resolve(ok(undefined));
    };
    server.once('error', onError);
    server.once('listening', onListening);
    start();
  });
}
