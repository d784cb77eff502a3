import type { ConnectionState, RemoteErrorEnvelope, RemoteState } from '@pi/remote';
import { VERSION_MISMATCH } from '@pi/transport-trpc';

/**
 * Writes one line to the session's log when its coordinator refuses it for good, at the hello (another version) or
 * at its credential: the upstream then stops retrying, and without the line nobody would learn why the session's
 * presence and records no longer reach the coordinator. Returns the remover.
 */
export function logUpstreamRefusal(connection: RemoteState<ConnectionState>, log: (line: string) => void): () => void {
  let told = false;
  return connection.subscribe((state) => {
    if (told || state.status !== 'disconnected' || state.retrying) return;
    const line = upstreamRefusalLine(state.reason);
    if (line === null) return;
    told = true;
    log(line);
  });
}

/** What a refusal says to whoever reads the log: why, and what to run. Null for an end that is no refusal. */
export function upstreamRefusalLine(reason: RemoteErrorEnvelope): string | null {
  if (reason.code === VERSION_MISMATCH)
    return `the coordinator refused this session: ${reason.message}; it outlived an upgrade of pi: stop it with \`pi-coordinator stop\` (its sessions stop too) and start pi again`;
  if (reason.code === 'not_authorized')
    return `the coordinator refused this session's credential (${reason.message}); the session runs on without it: stop the session and open it again with \`pi-tui --start\``;
  return null;
}
