import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventually } from '@pi/test-support';
import type { WatchFunction } from '../src/index';
import { commitEverything, writeProjectFile } from '../src/testing/git-repository';
import { nodeWatch } from '../src/watch-function';
import { startGitHost } from './git-host';

/** fs.watch, recording which paths are watched right now. */
function recordingWatch() {
  const open = new Map<string, number>();
  let opened = 0;
  const watch: WatchFunction = (path, options, listener) => {
    const real = nodeWatch(path, options, listener);
    open.set(path, (open.get(path) ?? 0) + 1);
    opened += 1;
    let closed = false;
    return {
      close() {
        if (!closed) open.set(path, (open.get(path) ?? 1) - 1);
        closed = true;
        real.close();
      },
      on: (event, handler) => real.on(event, handler),
    };
  };
  return {
    watch,
    watched: () => [...open].filter(([, count]) => count > 0).map(([path]) => path),
    opened: () => opened,
  };
}

const failingWatch: WatchFunction = () => {
  throw Object.assign(new Error('ENOSPC: System limit for number of file watchers reached'), { code: 'ENOSPC' });
};

describe('how the git facet notices changes', () => {
  it('watches one directory per directory git sees, never an ignored tree', async () => {
    const recording = recordingWatch();
    const host = await startGitHost({ transport: 'loopback', options: { watch: recording.watch } });
    await host.watching('directories');
    await writeProjectFile(host.project, '.gitignore', 'node_modules/\n');
    await writeProjectFile(host.project, 'node_modules/dep/index.js', 'module.exports = 1;\n');
    await writeProjectFile(host.project, 'src/deep/a.ts', 'export {};\n');
    await commitEverything(host.project, 'layout');
    await eventually(() => recording.watched().includes(join(host.project, 'src', 'deep')));

    const watched = recording.watched();
    expect(watched).toContain(host.project);
    expect(watched).toContain(join(host.project, 'src'));
    expect(watched).toContain(join(host.project, '.git'));
    expect(watched).toContain(join(host.project, '.git', 'refs', 'heads'));
    expect(watched.filter((path) => path.includes('node_modules'))).toEqual([]);
    expect(watched.filter((path) => path.includes(join('.git', 'objects')))).toEqual([]);
  });

  it('a directory created after the start is watched, so later edits inside it are seen', async () => {
    const host = await startGitHost({ transport: 'loopback' });
    await host.watching('directories');
    const client = await host.client();
    await writeProjectFile(host.project, 'later/file.txt', 'one\n');
    await client.until((status) => status.changes.untracked === 1);
    await commitEverything(host.project, 'later');
    await client.until((status) => status.clean);

    await writeFile(join(host.project, 'later', 'file.txt'), 'two\n');
    await client.until((status) => status.changes.unstaged === 1);
  });

  it('falls back to polling when fs.watch cannot start, and still sees edits', async () => {
    const host = await startGitHost({ transport: 'loopback', options: { watch: failingWatch } });
    await host.watching('polling');
    const client = await host.client();
    await writeFile(join(host.project, 'README.md'), '# seen by polling\n');
    await client.until((status) => !status.clean);
    expect(host.modes).not.toContain('directories');
  });

  it('polls a tree with more directories than it may watch, still watching the git directories', async () => {
    const recording = recordingWatch();
    const host = await startGitHost({
      transport: 'loopback',
      options: { watch: recording.watch, maxWatchedDirectories: 3 },
    });
    await host.watching('directories');
    await writeProjectFile(host.project, 'a/b/c/d.txt', 'deep\n');
    await commitEverything(host.project, 'deep');
    await host.watching('polling');
    expect(recording.watched()).toContain(join(host.project, '.git'));
    expect(recording.watched()).not.toContain(host.project);

    const client = await host.client();
    await writeFile(join(host.project, 'README.md'), '# seen by polling\n');
    await client.until((status) => !status.clean);
  });

  it('can watch recursively (the strategy used on macOS and Windows)', async () => {
    const host = await startGitHost({ transport: 'loopback', options: { watchStrategy: 'recursive' } });
    await host.watching('recursive');
    const client = await host.client();
    await writeProjectFile(host.project, 'src/new.ts', 'export {};\n');
    await client.until((status) => status.changes.untracked === 1);
    await commitEverything(host.project, 'new');
    await client.until((status) => status.clean);
  });

  it('stopping the session closes every watch the facet opened', async () => {
    const recording = recordingWatch();
    const host = await startGitHost({ transport: 'loopback', options: { watch: recording.watch } });
    await host.watching('directories');
    expect(recording.watched().length).toBeGreaterThan(0);
    await host.fixture.close();
    expect(recording.watched()).toEqual([]);
    expect(host.modes.at(-1)).toBe('none');
  });
});
