import { lstat, unlink } from 'node:fs/promises';
import { connect, createServer } from 'node:net';

/**
 * Checks, before the session is opened, that the addresses pi-session will listen on are free, so a busy one is
 * one clear line and no session file is touched. A socket file nobody answers on was left by a process that
 * died (SIGKILL, power loss): it is removed, so `--session <id>` can come back on the same path.
 * listenWebSocket checks again when it binds; this makes the common cases fail early and cleanly.
 */
export async function checkAddresses(socketPath: string, port: number | undefined): Promise<string | undefined> {
  if (await answers(socketPath)) return `Another process is listening on ${socketPath}`;
  if (await isSocketFile(socketPath)) await unlink(socketPath).catch(() => undefined);
  if (port !== undefined && port !== 0 && !(await portIsFree(port))) return `Port ${port} on 127.0.0.1 is already in use`;
  return undefined;
}

function answers(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(socketPath);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

async function isSocketFile(path: string): Promise<boolean> {
  return lstat(path).then(
    (stats) => stats.isSocket(),
    () => false,
  );
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
