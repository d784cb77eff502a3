import type { Context } from '@pi/context';
import { CALLER_IDENTITY, RemoteError, type CallerIdentity } from '@pi/remote';
import type { SessionIdentity } from './session-context';

/**
 * Who calls a coordinator, as its transport policy installed it from the connection's credential: a session
 * process (its per-session credential names one session of one workspace) or the local user (the CLI, the
 * TUI's launcher), who may act on every workspace.
 */
export type FleetCaller =
  | { readonly kind: 'session'; readonly principal: string; readonly session: SessionIdentity }
  | { readonly kind: 'user'; readonly principal: string };

/** The identity a coordinator installs for a session process's connection. */
export function sessionCallerIdentity(session: SessionIdentity): CallerIdentity {
  return {
    principal: `session:${session.sessionId}`,
    claims: { kind: 'session', sessionId: session.sessionId, workspaceId: session.workspaceId },
  };
}

/** The identity a coordinator installs for the local user's connection. */
export function userCallerIdentity(principal: string): CallerIdentity {
  return { principal, claims: { kind: 'user' } };
}

/** The caller of a coordinator call; `not_authorized` when the connection carries no fleet identity. */
export function requireFleetCaller(context: Context): FleetCaller {
  const identity = context.value(CALLER_IDENTITY);
  const claims = identity?.claims;
  if (identity !== undefined && claims?.['kind'] === 'user') return { kind: 'user', principal: identity.principal };
  if (
    identity !== undefined &&
    claims?.['kind'] === 'session' &&
    typeof claims['sessionId'] === 'string' &&
    typeof claims['workspaceId'] === 'string'
  ) {
    return {
      kind: 'session',
      principal: identity.principal,
      session: { sessionId: claims['sessionId'], workspaceId: claims['workspaceId'] },
    };
  }
  throw new RemoteError('not_authorized', 'This connection carries no fleet identity');
}

/** The calling session's identity (spec: requireSessionIdentity); `not_authorized` for any other caller. */
export function requireSessionIdentity(context: Context): SessionIdentity {
  const caller = requireFleetCaller(context);
  if (caller.kind !== 'session') throw new RemoteError('not_authorized', 'Only a session process may call this');
  return caller.session;
}
