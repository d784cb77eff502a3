import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** What a client needs to attach to a running session; it holds the token, so it is written 0600. */
export interface ConnectionInfo {
  readonly sessionId: string;
  readonly socketPath: string;
  readonly url: string | null;
  readonly token: string;
  readonly pid: number;
}

export async function writeConnectionFile(path: string, info: ConnectionInfo): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, path);
}

export async function removeConnectionFile(path: string): Promise<void> {
  await rm(path, { force: true });
}
