import type { PiClient } from '@pi/client';
import { coordinatorLine, type CoordinatorStatus } from '../coordinator-status';
import { EXIT } from '../exit-codes';
import type { Output } from '../output';

/**
 * `pi status`: the session found, the connection's state and what the host serves; and, for a session found
 * through its connection file, the coordinator (undefined with --socket or --url: that host may be anyone's).
 */
export async function statusCommand(
  client: PiClient,
  coordinator: CoordinatorStatus | undefined,
  json: boolean,
  io: Output,
): Promise<number> {
  const services = (await client.describe()).services.map((service) => service.id);
  const connection = client.connection.value.status;
  const heartbeat = client.heartbeat === false ? null : client.heartbeat;
  if (json) {
    io.out(JSON.stringify({ session: client.session, connection, heartbeat, services, coordinator }));
    return EXIT.ok;
  }
  const session = client.session;
  const rows: Array<[string, string]> =
    session === null
      ? [['session', '(an address given with --socket or --url)']]
      : [
          ['session', session.sessionId],
          ['cwd', session.cwd],
          ['pid', String(session.pid)],
          ['socket', session.socketPath],
          ...(session.url === null ? [] : [['url', session.url] as [string, string]]),
          ['connection file', session.connectionFile],
        ];
  rows.push([
    'connection',
    heartbeat === null ? connection : `${connection} (heartbeat ${heartbeat.idleMs} + ${heartbeat.timeoutMs} ms)`,
  ]);
  rows.push(['services', services.join(', ')]);
  if (coordinator !== undefined) rows.push(['coordinator', coordinatorLine(coordinator)]);
  printRows(rows, io);
  return EXIT.ok;
}

/**
 * When no session answers there, `pi status` still says whether the coordinator runs (on stdout; the reason no
 * session was found goes to stderr as usual, and the exit code stays that error's).
 */
export function coordinatorOnlyStatus(coordinator: CoordinatorStatus, json: boolean, io: Output): void {
  if (json) io.out(JSON.stringify({ session: null, connection: null, heartbeat: null, services: [], coordinator }));
  else printRows([['coordinator', coordinatorLine(coordinator)]], io);
}

function printRows(rows: ReadonlyArray<[string, string]>, io: Output): void {
  const width = Math.max(...rows.map(([label]) => label.length));
  for (const [label, value] of rows) io.out(`${label.padEnd(width)}  ${value}`);
}
