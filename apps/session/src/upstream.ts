import { err, ok, type Result } from 'neverthrow';
import { SessionPresence } from '@pi/coordinator-api';
import { readUpstreamHandoff, workspaceIdOf } from '@pi/connection-files';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { coordinatorUpstream, type CoordinatorUpstream } from '@pi/host-session';
import type { RpcHost } from '@pi/transport-trpc';

/**
 * The upstream a coordinator handed this session on a pipe: its socket and this session's credential (never on
 * the command line or in the environment, where other processes could read them). The handoff must name this
 * very session and the workspace of its directory.
 */
export async function upstreamFromHandoff(
  fd: number,
  sessionId: string,
  cwd: string,
): Promise<Result<CoordinatorUpstream, string>> {
  const handoff = await readUpstreamHandoff(fd);
  if (handoff.isErr()) return err(`The coordinator's handoff on fd ${fd}: ${handoff.error.message}`);
  if (handoff.value.sessionId !== sessionId) {
    return err(`The coordinator's handoff names session ${handoff.value.sessionId}, not ${sessionId}`);
  }
  if (handoff.value.workspaceId !== workspaceIdOf(cwd)) {
    return err(`The coordinator's handoff names another workspace than ${cwd}'s`);
  }
  return ok(coordinatorUpstream({ socketPath: handoff.value.socketPath, credential: handoff.value.credential }));
}

/**
 * Tells the coordinator how many presentations are attached (its `active` and `idle`), now, at every change and
 * after every reconnect. A report that fails is dropped: the next change or reconnect sends the count again.
 */
export function reportPresence(upstream: CoordinatorUpstream, rpc: RpcHost): () => void {
  let presentations = 0;
  const report = () => {
    if (upstream.connection.value.status !== 'connected') return;
    const count = presentations;
    upstream.client
      .use(SessionPresence)
      .then((presence) => presence.report({ presentations: count }, BACKGROUND_CONTEXT))
      .catch(() => undefined);
  };
  const stops = [
    rpc.onClientConnect(() => {
      presentations += 1;
      report();
    }),
    rpc.onClientDisconnect(() => {
      presentations = Math.max(0, presentations - 1);
      report();
    }),
    upstream.connection.subscribe((connection) => {
      if (connection.status === 'connected') report();
    }),
  ];
  return () => stops.forEach((stop) => stop());
}
