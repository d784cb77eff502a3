import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seedSessionFile } from '@pi/host-session/testing';

/**
 * A session directory whose session file already holds `count` user messages, as a long session restored from
 * disk. The caller removes the directory.
 */
export async function seededSessionDirectory(count: number): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'pi-bench-tui-'));
  await seedSessionFile(directory, count);
  return directory;
}
