import { err, ok, type Result } from 'neverthrow';
import { readUpstreamHandoff, workspaceIdOf } from '@pi/connection-files';
import { coordinatorUpstream, type CoordinatorUpstream } from '@pi/host-session';

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
