import { RemoteError, createRemoteState, type ConnectionState } from '@pi/remote';
import type { SessionUpstream } from '@pi/plugin-api';

/** The upstream of a standalone session: no coordinator, so every use fails with a stable code and says why. */
export function absentUpstream(): SessionUpstream {
  const connection = createRemoteState<ConnectionState>({
    status: 'disconnected',
    reason: { code: 'unavailable', message: 'No coordinator is configured for this session' },
    retrying: false,
  });
  return {
    available: false,
    connection,
    use: () => Promise.reject(new RemoteError('unavailable', 'No coordinator is configured for this session')),
  };
}
