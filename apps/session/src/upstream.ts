import { readFile } from 'node:fs/promises';
import { err, ok, type Result } from 'neverthrow';
import { readSessionCredentialFile, readUpstreamHandoff, workspaceIdOf } from '@pi/connection-files';
import { SessionControl } from '@pi/coordinator-api';
import { coordinatorUpstream, type CoordinatorUpstream } from '@pi/host-session';
import type { RemoteCoordinator } from './cli-options';

/**
 * The upstream a coordinator handed this session on a pipe: its socket and this session's credential (never on
 * the command line or in the environment, where other processes could read them). The handoff must name this
 * very session and the workspace of its directory. The credential comes back too: the session also takes it as a
 * token, from the coordinator's gateway relaying a presentation.
 */
export async function upstreamFromHandoff(
  fd: number,
  sessionId: string,
  cwd: string,
): Promise<Result<{ upstream: CoordinatorUpstream; credential: string }, string>> {
  const handoff = await readUpstreamHandoff(fd);
  if (handoff.isErr()) return err(`The coordinator's handoff on fd ${fd}: ${handoff.error.message}`);
  if (handoff.value.sessionId !== sessionId) {
    return err(`The coordinator's handoff names session ${handoff.value.sessionId}, not ${sessionId}`);
  }
  if (handoff.value.workspaceId !== workspaceIdOf(cwd)) {
    return err(`The coordinator's handoff names another workspace than ${cwd}'s`);
  }
  const { socketPath, credential, replicas, ca } = handoff.value;
  // The other replicas, when the coordinator named them: this session outlives its own replica's death.
  return ok({ upstream: coordinatorUpstream({ socketPath, credential, urls: replicas ?? [], ca }), credential });
}

/**
 * The upstream of a session that runs away from its coordinator (`--coordinator URL --credential-file FILE`): the
 * enrolled session's credential, presented to whichever replica URL answers, its certificate checked against
 * `--tls-ca` when given. The file must name this session (when `--session` names one) and its directory's workspace.
 */
export async function upstreamFromCredentialFile(
  remote: RemoteCoordinator,
  sessionId: string | undefined,
  cwd: string,
): Promise<Result<{ sessionId: string; credential: string; connect: () => CoordinatorUpstream }, string>> {
  const file = await readSessionCredentialFile(remote.credentialFile);
  if (file.isErr()) return err(file.error);
  if (sessionId !== undefined && file.value.sessionId !== sessionId)
    return err(`The credential file names session ${file.value.sessionId}, not ${sessionId}`);
  if (file.value.workspaceId !== workspaceIdOf(cwd))
    return err(`The credential file was enrolled for another directory than ${cwd} (pi-coordinator enroll --cwd)`);
  let ca: string | undefined;
  if (remote.caFile !== undefined) {
    try {
      ca = await readFile(remote.caFile, 'utf8');
    } catch (error) {
      return err(`Cannot read --tls-ca ${remote.caFile}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  const { credential } = file.value;
  return ok({
    sessionId: file.value.sessionId,
    credential,
    connect: () => coordinatorUpstream({ urls: remote.urls, ca, credential }),
  });
}

/**
 * Says on the session's log why its coordinator cannot be reached (once per reason, not on every retry) and when it
 * is reached again; a refused credential the session host reports itself. Unsubscribe before closing the upstream:
 * its own closing is no news.
 */
export function logUpstreamHealth(upstream: CoordinatorUpstream, log: (line: string) => void): () => void {
  let said: string | undefined;
  return upstream.connection.subscribe((state) => {
    if (state.status === 'connected') {
      if (said !== undefined) log('reached the coordinator');
      said = undefined;
    } else if (state.status === 'disconnected' && state.reason.code !== 'not_authorized') {
      const line = `cannot reach the coordinator: ${state.reason.message}${state.retrying ? '; trying again' : ''}`;
      if (line !== said) log(line);
      said = line;
    }
  });
}

/**
 * Follows what the coordinator tells this session (`SessionControl`): `onStop` when it asks the session to stop (for
 * a session it cannot signal: one on another host, or one another replica started), and where its other replicas
 * serve, which join the addresses the upstream reconnects to. Watched from each connection on, so the replica a
 * session reconnects to can ask too; a coordinator from before `SessionControl` never asks.
 */
export function followSessionControl(
  upstream: CoordinatorUpstream,
  sessionId: string,
  onStop: () => void,
  log: (line: string) => void,
): () => void {
  let disposed = false;
  let watching = false;
  let release: (() => void) | undefined;
  const watch = () => {
    if (watching || disposed) return;
    watching = true;
    upstream.client.use(SessionControl).then(
      (control) => {
        if (disposed) return;
        const stops = control.events.subscribe((event) => {
          if (event.type === 'stop' && event.sessionId === sessionId) onStop();
        });
        const replicas = control.state.subscribe((state) => {
          const added = upstream.learnReplicas(state.replicas);
          if (added.length > 0) log(`will reconnect to the coordinator's replicas at ${added.join(', ')} too`);
        });
        release = () => {
          stops();
          replicas();
        };
      },
      // Not served there (an older coordinator): the next connection may reach one that serves it.
      () => void (watching = false),
    );
  };
  const stopWatching = upstream.connection.subscribe((state) => {
    if (state.status === 'connected') watch();
  });
  return () => {
    disposed = true;
    stopWatching();
    release?.();
  };
}
