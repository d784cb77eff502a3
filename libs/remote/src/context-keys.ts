import { defineSharedContextKey } from '@pi/context';
import type { JsonObject } from '@pi/json';

/** Who is calling, as the server's authentication policy decided from the connection's credentials. */
export interface CallerIdentity {
  /** A stable name for the authenticated principal, such as a user or a session id. */
  readonly principal: string;
  /** Policy-defined claims (for example a workspace id); never taken from call arguments. */
  readonly claims: JsonObject;
}

/** The connection's id, installed by the providing host's transport; a client can never set it. Shared by name
 *  across copies of the library, so a plugin that bundles its own copy reads what the host installed. */
export const CLIENT_ID = defineSharedContextKey<string | undefined>('pi.client-id', undefined);

/** The authenticated caller, installed by the providing host's transport policy. */
export const CALLER_IDENTITY = defineSharedContextKey<CallerIdentity | undefined>('pi.caller-identity', undefined);
