import { connectionFilePath, readConnectionFile, readCoordinatorConnection } from '@pi/connection-files';
import { createRpcClient, webSocketFactory, type RpcClient } from '@pi/transport-trpc';
import type { PiSandbox } from './pi-sandbox';

/**
 * Clients of a sandbox's pi programs as its local user (socket path and token from their connection files), never
 * reconnecting; closed together when the test is done.
 */
export interface SandboxClients {
  /** A new client of the running coordinator, once connected. */
  coordinator(): Promise<RpcClient>;
  /** A new client of a session's own socket, as a presentation connects. */
  session(sessionId: string): Promise<RpcClient>;
  closeAll(): void;
}

export function sandboxClients(sandbox: Pick<PiSandbox, 'directories' | 'files'>): SandboxClients {
  const clients: RpcClient[] = [];
  const connect = async (socketPath: string, token: string) => {
    const client = createRpcClient({
      socketFactory: webSocketFactory({ socketPath }),
      connectionParams: { token },
      reconnect: false,
    });
    clients.push(client);
    await client.whenConnected();
    return client;
  };
  return {
    async coordinator() {
      const info = (await readCoordinatorConnection(sandbox.files.connectionFile))._unsafeUnwrap();
      return connect(info.socketPath, info.token);
    },
    async session(sessionId) {
      const file = connectionFilePath(sandbox.directories.dataDir, sessionId);
      const info = (await readConnectionFile(file))._unsafeUnwrap();
      return connect(info.socketPath, info.token);
    },
    closeAll() {
      for (const client of clients.splice(0)) client.close();
    },
  };
}
