import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';

const SECRET_BYTES = 32;

/**
 * The key session credentials are signed with. It outlives the coordinator process, so a coordinator started
 * again accepts the sessions that kept running; it never leaves the user's data directory (mode 0600).
 */
export async function coordinatorSecret(path: string): Promise<Buffer> {
  const existing = await readFile(path).catch(() => undefined);
  if (existing !== undefined && existing.length >= SECRET_BYTES) return existing;
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const secret = randomBytes(SECRET_BYTES);
  const handle = await open(path, 'w', 0o600);
  try {
    await handle.writeFile(secret);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return secret;
}
