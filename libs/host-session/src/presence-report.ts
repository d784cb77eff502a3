import type { ConnectionState, RemoteState } from '@pi/plugin-api';
import type { SessionHost } from './session-host';

/** What a session tells its coordinator of itself (the coordinator's SessionPresence report). */
export interface SessionPresence {
  readonly presentations: number;
  readonly busy: boolean;
}

/**
 * Tells the coordinator how many presentations are attached (its `active` and `idle`) and whether the session is
 * busy (it never stops a busy one), now, at every change and after every reconnect. Reports go one at a time, each
 * with the latest values, so a later one never overtakes an earlier one; one that fails is dropped: the next
 * change or reconnect sends the values again.
 */
export function reportPresence(
  host: Pick<SessionHost, 'rpc' | 'activity'>,
  upstream: { readonly connection: RemoteState<ConnectionState> },
  send: (presence: SessionPresence) => Promise<void>,
): () => void {
  let presentations = 0;
  let sending = false;
  let again = false;
  let stopped = false;
  const report = () => {
    if (stopped || upstream.connection.value.status !== 'connected') return;
    if (sending) {
      again = true;
      return;
    }
    sending = true;
    send({ presentations, busy: host.activity.busy })
      .catch(() => undefined)
      .finally(() => {
        sending = false;
        if (!again) return;
        again = false;
        report();
      });
  };
  const stops = [
    host.rpc.onClientConnect(() => {
      presentations += 1;
      report();
    }),
    host.rpc.onClientDisconnect(() => {
      presentations = Math.max(0, presentations - 1);
      report();
    }),
    host.activity.onChange(() => report()),
    upstream.connection.subscribe((connection) => {
      if (connection.status === 'connected') report();
    }),
  ];
  return () => {
    stopped = true;
    stops.forEach((stop) => stop());
  };
}
