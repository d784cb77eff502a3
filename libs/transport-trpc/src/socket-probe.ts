import { lstat } from 'node:fs/promises';
import { connect } from 'node:net';

/** Whether a live process accepts connections on this Unix socket (a dead one's file refuses them). */
export function isSocketAnswering(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(socketPath);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

/** Whether the path is a socket file (so replacing it can never delete a user's regular file). */
export function isSocketFile(path: string): Promise<boolean> {
  return lstat(path).then(
    (stats) => stats.isSocket(),
    () => false,
  );
}
