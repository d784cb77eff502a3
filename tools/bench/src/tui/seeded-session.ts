import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { SessionEntry } from '@pi/agent';
import { testSessionHostOptions, type TestFacet } from '@pi/host-session/testing';

/**
 * A session directory whose session file already holds `count` user messages ("seeded message 0", …), as a long
 * session restored from disk (the layout plugins/chat/session/test seeds). The caller removes the directory.
 */
export async function seededSessionDirectory(count: number, facets: readonly TestFacet[]): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'pi-bench-tui-'));
  const file = testSessionHostOptions(directory, { facets }).sessionFile;
  const header = {
    type: 'session',
    version: 1,
    sessionId: 'test',
    cwd: directory,
    createdAt: new Date().toISOString(),
  };
  const lines = [JSON.stringify(header)];
  for (let index = 0; index < count; index += 1) {
    const entry: SessionEntry = {
      id: `s${index}`,
      parentId: index === 0 ? null : `s${index - 1}`,
      timestamp: '2025-01-01T00:00:00.000Z',
      kind: 'message',
      operationId: null,
      message: { role: 'user', content: [{ type: 'text', text: `seeded message ${index}` }] },
    };
    lines.push(JSON.stringify(entry));
  }
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, `${lines.join('\n')}\n`, { mode: 0o600 });
  return directory;
}
