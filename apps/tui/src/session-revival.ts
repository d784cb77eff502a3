import type { Result } from 'neverthrow';
import type { RpcClient } from '@pi/transport-trpc';

/**
 * While a TUI opened through the coordinator is attached, a session whose process ends under it (a crash, a kill)
 * is started again: the coordinator only records such a session closed (its policy: no restarts of its own), but a
 * person looking at it wants it back. When the connection drops, `resume` asks the coordinator to start the session
 * again (it starts nothing when no coordinator runs or the record is gone); the client, reconnecting on its own,
 * then attaches to the new process (same socket path, new token in the connection file), and the footer goes from
 * disconnected back to connected. Returns the stop.
 */
export function reviveWhenEnded(
  client: Pick<RpcClient, 'connection'>,
  resume: () => Promise<Result<string, string>>,
): () => void {
  let connected = client.connection.value.status === 'connected';
  let resuming = false;
  const stop = client.connection.subscribe((state) => {
    if (state.status === 'connected') connected = true;
    if (state.status !== 'disconnected' || !connected || resuming) return;
    connected = false;
    resuming = true;
    void resume().finally(() => (resuming = false));
  });
  return stop;
}
