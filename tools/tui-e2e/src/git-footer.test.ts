import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Git } from '@pi/git';
import { createGitFacet, pluginId as gitId } from '@pi/git-session';
import {
  GIT_TEST_ENV,
  commitEverything,
  initRepository,
  removeDirectory,
  temporaryDirectory,
} from '@pi/git-session/testing';
import { gitTuiFacet } from '@pi/git-tui';
import { startTestSessionHost } from '@pi/host-session/testing';
import { startTestTuiHost, type TestTuiHost } from '@pi/host-tui/testing';
import { TRANSPORTS, eventually, type TransportKind } from '@pi/test-support';
import { hides, shows } from './session-and-tui';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A session running the real git facet in `<tmp>/project` (a repository on `main`), and a TUI running its footer. */
async function start(transport: TransportKind, repository = true) {
  const directory = await temporaryDirectory('pi-git-e2e-');
  cleanups.push(() => removeDirectory(directory));
  const project = join(directory, 'project');
  if (repository) await initRepository(project);
  else await mkdir(project);
  const session = await startTestSessionHost({
    directory,
    transport,
    facets: [{ id: gitId, facet: createGitFacet({ env: GIT_TEST_ENV, debounceMs: 20, maxDelayMs: 200 }) }],
  });
  cleanups.push(() => session.close());
  const tui = await startTestTuiHost({ facets: { [gitId]: gitTuiFacet }, client: await session.connect() });
  cleanups.push(() => tui.stop());
  return {
    project,
    session,
    tui,
    shows: (text: string) => shows(tui, text),
    hides: (text: string) => hides(tui, text),
  };
}

function footerOf(tui: TestTuiHost): string {
  return tui
    .screen()
    .split('\n')
    .filter((row) => row.includes('⎇'))
    .join('\n');
}

describe.each(TRANSPORTS)('the git footer against the real session facet over %s', (transport) => {
  it('shows the branch, the dirty mark after a file changes on disk, and clean again after a commit outside pi', async () => {
    const { project, tui, shows, hides } = await start(transport);
    await shows('⎇ main');
    expect(footerOf(tui)).not.toContain('⎇ main*');

    await writeFile(join(project, 'README.md'), '# changed on disk\n');
    await shows('⎇ main*');

    await commitEverything(project, 'second');
    await hides('⎇ main*');
    expect(footerOf(tui)).toContain('⎇ main');
  });

  it('shows no branch outside a repository once the session has checked', async () => {
    const { session, tui } = await start(transport, false);
    const status = (await (await session.connect()).use(Git)).status;
    await eventually(() => status.value.checked);
    expect(status.value.inRepository).toBe(false);
    tui.host.flush();
    expect(tui.screen()).not.toContain('⎇');
    expect(tui.host.failures()).toEqual([]);
  });
});
