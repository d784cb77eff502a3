import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/plugin-api';
import { startTestSessionHost } from '@pi/host-session/testing';
import { TRANSPORTS, remoteErrorOf, type TransportKind } from '@pi/test-support';
import { PROJECT_FILE_LIMITS, ProjectFiles, type ProjectFilesService } from '@pi/tools-core';
import { pluginId, toolsCoreSessionFacet } from '../src/index';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A session running tools-core on a project of `files`, and a client's ProjectFiles over `transport`. */
async function projectFiles(transport: TransportKind, files: Record<string, string>) {
  const session = await startTestSessionHost({ transport, facets: [{ id: pluginId, facet: toolsCoreSessionFacet }] });
  closers.push(() => session.close());
  const project = join(session.directory, 'project');
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(project, path)), { recursive: true });
    await writeFile(join(project, path), content);
  }
  const service: ProjectFilesService = await (await session.connect()).use(ProjectFiles);
  const paths = async (query: string, limit = 20) =>
    (await service.search(query, limit, BACKGROUND_CONTEXT)).matches.map(
      (file) => `${file.path}${file.isDirectory ? '/' : ''}`,
    );
  return { session, project, service, paths };
}

describe.each(TRANSPORTS)('the project files of a session over %s', (transport) => {
  it('finds files fuzzily, best first: the name, then a path segment, then the letters in order', async () => {
    const { paths } = await projectFiles(transport, {
      'src/app.ts': '',
      'apps/tui/main.ts': '',
      'lib/a-p-p.ts': '',
      'README.md': '',
    });
    expect(await paths('app')).toEqual(['apps/', 'src/app.ts', 'apps/tui/', 'apps/tui/main.ts', 'lib/a-p-p.ts']);
    expect(await paths('src/ap')).toEqual(['src/app.ts']);
    // Nothing typed yet: the tree level by level.
    expect(await paths('')).toEqual([
      'apps/',
      'lib/',
      'README.md',
      'src/',
      'apps/tui/',
      'lib/a-p-p.ts',
      'src/app.ts',
      'apps/tui/main.ts',
    ]);
  });

  it('leaves out what .gitignore ignores, .git and node_modules', async () => {
    const { paths } = await projectFiles(transport, {
      '.gitignore': 'dist/\n*.log\n',
      'dist/app.js': '',
      'debug.log': '',
      'node_modules/app/index.js': '',
      '.git/app': '',
      'src/app.ts': '',
    });
    expect(await paths('app')).toEqual(['src/app.ts']);
  });

  it('returns at most the limit asked for, and refuses a limit or a query out of bounds with a clear error', async () => {
    const files = Object.fromEntries(Array.from({ length: 12 }, (_, index) => [`note-${index}.md`, '']));
    const { service, paths } = await projectFiles(transport, files);
    expect(await paths('note', 5)).toHaveLength(5);
    for (const [query, limit, why] of [
      ['note', 0, /args\[1\].*>=1/],
      ['note', PROJECT_FILE_LIMITS.maxLimit + 1, /args\[1\].*<=100/],
      ['x'.repeat(PROJECT_FILE_LIMITS.maxQueryLength + 1), 5, /args\[0\].*<=256 characters/],
      ['a\0b', 5, /A query cannot contain a NUL character/],
    ] as const) {
      const error = await remoteErrorOf(service.search(query, limit, BACKGROUND_CONTEXT));
      expect(error.code).toBe('invalid_argument');
      expect(error.message).toMatch(why);
    }
  });

  it('never returns a path outside the working directory, through .. or a symbolic link', async () => {
    const { session, project, paths } = await projectFiles(transport, { 'inside.txt': '' });
    await mkdir(join(session.directory, 'outside'), { recursive: true });
    await writeFile(join(session.directory, 'outside', 'secret.txt'), 'secret');
    await symlink(join(session.directory, 'outside'), join(project, 'linked'));
    expect(await paths('secret')).toEqual([]);
    expect(await paths('../outside/secret.txt')).toEqual([]);
    expect(await paths('linked')).toEqual(['linked']);
  });
});
