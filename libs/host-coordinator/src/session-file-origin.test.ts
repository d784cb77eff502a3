import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { workspaceIdOf } from '@pi/connection-files';
import { readSessionFileOrigin } from './session-file-origin';

const header = (fields: Record<string, unknown>) =>
  `${JSON.stringify({ type: 'session', version: 1, createdAt: 'then', ...fields })}\n`;

describe('reading whose a session file is', () => {
  let directory: string;
  beforeEach(async () => void (directory = await mkdtemp(join(tmpdir(), 'pi-origin-'))));
  afterEach(() => rm(directory, { recursive: true, force: true }));
  const file = (name: string) => join(directory, name);

  it('gives the directory, its workspace and the fork source from the header line only', async () => {
    await writeFile(
      file('a.jsonl'),
      header({ sessionId: 'a', cwd: '/projects/red', forkedFrom: { sessionId: 'p', entryId: null } }) +
        '{"not":"read"}\n',
    );
    expect(await readSessionFileOrigin(file('a.jsonl'), 'a')).toEqual({
      cwd: '/projects/red',
      workspaceId: workspaceIdOf('/projects/red'),
      forkedFrom: 'p',
    });
    await writeFile(file('b.jsonl'), header({ sessionId: 'b', cwd: '/projects/blue' }));
    expect(await readSessionFileOrigin(file('b.jsonl'), 'b')).toMatchObject({ forkedFrom: null });
  });

  it('finds no origin in a missing file, a header of another id, a torn or foreign first line, or a directory', async () => {
    await writeFile(file('other.jsonl'), header({ sessionId: 'someone-else', cwd: '/projects/red' }));
    await writeFile(file('torn.jsonl'), header({ sessionId: 'torn', cwd: '/projects/red' }).slice(0, 30));
    await writeFile(file('entry.jsonl'), '{"kind":"message","id":"1"}\n');
    await writeFile(file('text.jsonl'), 'hello\n');
    await writeFile(file('huge.jsonl'), `${'x'.repeat(100_000)}\n`);
    const cases = [
      ['missing.jsonl', 'missing'],
      ['other.jsonl', 'other'],
      ['torn.jsonl', 'torn'],
      ['entry.jsonl', 'entry'],
      ['text.jsonl', 'text'],
      ['huge.jsonl', 'huge'],
      ['.', 'dir'],
    ] as const;
    for (const [name, sessionId] of cases)
      expect(await readSessionFileOrigin(file(name), sessionId), name).toBeUndefined();
  });

  it('does not wait on a FIFO planted under a session file’s name', async () => {
    execFileSync('mkfifo', [file('fifo.jsonl')]);
    expect(await readSessionFileOrigin(file('fifo.jsonl'), 'fifo')).toBeUndefined();
  });
});
