import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadManifestFile } from './manifest-file';

describe('loadManifestFile', () => {
  let folder = '';

  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'pi-manifest-'));
  });

  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  async function manifestFile(text: string): Promise<string> {
    const path = join(folder, 'plugins.json');
    await writeFile(path, text);
    return path;
  }

  it('loads a valid manifest', async () => {
    const path = await manifestFile('{ "plugins": ["@pi/chat", { "id": "@pi/git", "config": { "depth": 3 } }] }');
    expect((await loadManifestFile(path))._unsafeUnwrap().entries).toEqual([
      { id: '@pi/chat', config: null },
      { id: '@pi/git', config: { depth: 3 } },
    ]);
  });

  it('reports a missing file as unreadable, naming the path', async () => {
    const path = join(folder, 'absent.json');
    const error = (await loadManifestFile(path))._unsafeUnwrapErr();
    expect(error).toMatchObject({ code: 'unreadable_file', file: path });
    expect(error.message).toContain(path);
  });

  it('reports malformed JSON, naming the path', async () => {
    const path = await manifestFile('{ "plugins": [ ');
    const error = (await loadManifestFile(path))._unsafeUnwrapErr();
    expect(error).toMatchObject({ code: 'invalid_json', file: path });
    expect(error.message).toContain(path);
  });

  it('reports an invalid manifest with its parse code, naming the path', async () => {
    const path = await manifestFile('{ "plugins": ["a", "a"] }');
    const error = (await loadManifestFile(path))._unsafeUnwrapErr();
    expect(error).toMatchObject({ code: 'duplicate_id', file: path });
    expect(error.message).toContain(path);
  });
});
