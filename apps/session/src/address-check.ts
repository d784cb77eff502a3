import { unlink } from 'node:fs/promises';
import { createServer } from 'node:net';
import { isSocketAnswering, isSocketFile } from '@pi/transport-trpc';

/**
 * Checks, before the session is opened, that the addresses pi-session will listen on are free, so a busy one is
 * one clear line and no session file is touched. A socket file nobody answers on was left by a process that
 * died (SIGKILL, power loss): it is removed, so `--session <id>` can come back on the same path.
 * listenWebSocket checks again when it binds; this makes the common cases fail early and cleanly.
 */
export async function checkAddresses(socketPath: string, port: number | undefined): Promise<string | undefined> {
  if (await isSocketAnswering(socketPath)) return `Another process is listening on ${socketPath}`;
  if (await isSocketFile(socketPath)) await unlink(socketPath).catch(() => undefined);
  if (port !== undefined && port !== 0 && !(await portIsFree(port)))
    return `Port ${port} on 127.0.0.1 is already in use`;
  return undefined;
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
