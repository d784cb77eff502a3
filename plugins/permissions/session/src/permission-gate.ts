import type { CodingAgentSessionPluginContext, Context } from '@pi/plugin-api';
import { ConfirmInteraction, DENIAL_CODES, type DenialCode } from '@pi/permissions';
import { RemoteError } from '@pi/remote';
import { describeCall } from './call-description';
import { oneAtATime } from './one-at-a-time';
import type { PermissionMode } from './permission-config';
import { SessionGrants, sessionGrantScope } from './session-grants';

/** Whether one guarded call may run; a denial says why. */
export type Verdict = { readonly allowed: true } | { readonly allowed: false; readonly code: DenialCode };

export interface PermissionGate {
  check(tool: string, args: unknown, context: Context): Promise<Verdict>;
}

const ALLOWED: Verdict = { allowed: true };
const denied = (code: DenialCode): Verdict => ({ allowed: false, code });

/**
 * The decision behind the wrapper. In `ask` mode a call runs only on an explicit allow from a connected
 * presentation or a grant from an earlier "allow for this session"; every failure to get an answer denies it
 * (fail closed). The grants live as long as the gate, which the facet creates once per session process.
 */
export function createPermissionGate(options: {
  readonly mode: Exclude<PermissionMode, 'allow-all'>;
  readonly timeoutMs: number;
  readonly interactions: CodingAgentSessionPluginContext['interactions'];
}): PermissionGate {
  const grants = new SessionGrants();
  const waitForTurn = oneAtATime();

  async function ask(tool: string, args: unknown, context: Context): Promise<Verdict> {
    const turn = await waitForTurn(context.abortSignal);
    if (turn === false) return denied(DENIAL_CODES.cancelled);
    try {
      // The answer to the call before this one may have granted it.
      if (grants.allows(tool, args)) return ALLOWED;
      const { summary, details, diff } = describeCall(tool, args);
      const request = {
        tool,
        summary,
        details,
        ...(diff === undefined ? {} : { diff }),
        sessionGrant: sessionGrantScope(tool),
        timeoutMs: options.timeoutMs,
      };
      const { decision } = await options.interactions.request(ConfirmInteraction, request, context, {
        timeoutMs: options.timeoutMs,
      });
      switch (decision) {
        case 'allow_session':
          grants.grant(tool, args);
          return ALLOWED;
        case 'allow_once':
          return ALLOWED;
        case 'deny':
          return denied(DENIAL_CODES.user_denied);
      }
    } catch (failure) {
      return denied(denialOf(failure));
    } finally {
      turn();
    }
  }

  return {
    async check(tool, args, context) {
      if (options.mode === 'deny-all') return denied(DENIAL_CODES.deny_all);
      try {
        return grants.allows(tool, args) ? ALLOWED : await ask(tool, args, context);
      } catch {
        return denied(DENIAL_CODES.failed);
      }
    },
  };
}

/** The broker's stable codes name why nobody answered; anything else (a client's own failure) is `failed`. */
function denialOf(failure: unknown): DenialCode {
  if (!(failure instanceof RemoteError)) return DENIAL_CODES.failed;
  switch (failure.code) {
    case 'no_handler':
    case 'timeout':
    case 'disconnected':
    case 'invalid_result':
    case 'cancelled':
      return failure.code;
    default:
      return DENIAL_CODES.failed;
  }
}
