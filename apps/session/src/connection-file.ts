import { rm } from 'node:fs/promises';
import { writeFileAtomic } from '@pi/atomic-file';

/** What a client needs to attach to a running session; it holds the token, so it is written 0600. */
export interface ConnectionInfo {
  readonly sessionId: string;
  readonly socketPath: string;
  readonly url: string | null;
  readonly token: string;
  readonly pid: number;
}

export async function writeConnectionFile(path: string, info: ConnectionInfo): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(info, null, 2)}\n`, { fileMode: 0o600 });
}

export async function removeConnectionFile(path: string): Promise<void> {
  await rm(path, { force: true });
}
