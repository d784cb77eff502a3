import type { PiClient } from '@pi/client';
import { EXIT } from '../exit-codes';
import type { Output } from '../output';

/** `pi status`: the session found, the connection's state and what the host serves. */
export async function statusCommand(client: PiClient, json: boolean, io: Output): Promise<number> {
  const services = (await client.describe()).services.map((service) => service.id);
  const connection = client.connection.value.status;
  const heartbeat = client.heartbeat === false ? null : client.heartbeat;
  if (json) {
    io.out(JSON.stringify({ session: client.session, connection, heartbeat, services }));
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
  const width = Math.max(...rows.map(([label]) => label.length));
  for (const [label, value] of rows) io.out(`${label.padEnd(width)}  ${value}`);
  return EXIT.ok;
}
