import superjson from 'superjson';
import { RemoteError, isRemoteErrorEnvelope } from '@pi/remote';
import { RpcConnection, TrpcChannel, type SocketFactory } from '@pi/transport-trpc';
import { FIXTURE_TOKEN } from './rpc-fixture';
import { nextValue } from './waiting';

/**
 * A connected channel without the typed proxy above it, so a test can send what a well-behaved client
 * never would: unknown paths, unchecked arguments, extra envelope fields, forged connection params.
 */
export interface RawChannel {
  readonly connection: RpcConnection;
  readonly channel: TrpcChannel;
  /** Sends one tRPC mutation frame with `input` as plain JSON; rejects with the server's RemoteError. */
  mutate(path: string, input: unknown): Promise<unknown>;
  /** The same, with `input` encoded by superjson, so a Date, Map or Set arrives at the server as one. */
  mutateEncoded(path: string, input: unknown): Promise<unknown>;
  close(): void;
  [Symbol.dispose](): void;
}

export async function openRawChannel(
  socketFactory: SocketFactory,
  connectionParams: Readonly<Record<string, string>> = { token: FIXTURE_TOKEN },
): Promise<RawChannel> {
  const connection = new RpcConnection({ socketFactory, connectionParams, reconnect: false });
  const close = () => connection.close();
  const state = await nextValue(connection.connection, (value) => value.status !== 'connecting');
  if (state.status !== 'connected') {
    close();
    throw new Error(`The raw channel did not connect: ${JSON.stringify(state)}`);
  }
  return {
    connection,
    channel: new TrpcChannel(connection),
    mutate: (path, input) => mutate(connection, path, { json: input }),
    mutateEncoded: (path, input) => mutate(connection, path, superjson.serialize(input)),
    close,
    [Symbol.dispose]: close,
  };
}

/** Plain JSON is a valid superjson payload as `{ json }`; replies come back in the same wrapping. */
function mutate(connection: RpcConnection, path: string, encoded: unknown): Promise<unknown> {
  return new Promise((resolve, reject) => {
    connection.request(
      { type: 'mutation', path, input: encoded, persistent: false },
      {
        data: (data) => resolve((data as { json?: unknown } | null)?.json),
        error: (shape) => {
          const plain = 'json' in shape ? (shape as unknown as { json: typeof shape }).json : shape;
          const remote = plain.data?.remote;
          reject(
            isRemoteErrorEnvelope(remote)
              ? RemoteError.fromEnvelope(remote)
              : new Error(`Not an envelope: ${JSON.stringify(shape)}`),
          );
        },
        complete: () => undefined,
      },
    );
  });
}
