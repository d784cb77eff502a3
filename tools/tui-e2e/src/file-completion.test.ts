import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestSessionHost } from '@pi/host-session/testing';
import { startTestTuiHost, type TestTuiHost } from '@pi/host-tui/testing';
import { TRANSPORTS, type TransportKind } from '@pi/test-support';
import { pluginId as toolsCoreId, toolsCoreSessionFacet } from '@pi/tools-core-session';
import { toolsCoreTuiFacet } from '@pi/tools-core-tui';
import { shows } from './session-and-tui';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * A real session running tools-core on a temporary project of `files`, and a TUI running the tools-core TUI facet
 * over `transport`, with a stand-in for chat that records the prompts sent.
 */
async function startProject(
  transport: TransportKind,
  files: Record<string, string>,
): Promise<{ tui: TestTuiHost; sent: string[] }> {
  const session = await startTestSessionHost({
    transport,
    facets: [{ id: toolsCoreId, facet: toolsCoreSessionFacet }],
  });
  cleanups.push(() => session.close());
  const project = join(session.directory, 'project');
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(project, path)), { recursive: true });
    await writeFile(join(project, path), content);
  }
  const sent: string[] = [];
  const tui = await startTestTuiHost({
    facets: {
      [toolsCoreId]: toolsCoreTuiFacet,
      '@test/chat': (context) => void context.editor.onSubmit((text) => void sent.push(text)),
    },
    client: await session.connect(),
  });
  cleanups.push(() => tui.stop());
  return { tui, sent };
}

describe.each(TRANSPORTS)('@ file completion against a real session over %s', (transport) => {
  it('offers the session’s files that match, never the ignored ones; Enter puts the path in the prompt, sent as text', async () => {
    const { tui, sent } = await startProject(transport, {
      '.gitignore': 'dist/\n',
      'dist/app.js': '',
      'src/app.ts': 'export {};\n',
      'src/components/app-bar.ts': '',
      'docs/mapping.md': '',
    });
    await tui.type('explain @ap');
    await shows(tui, '› @src/app.ts');
    expect(tui.screen()).toContain('@src/components/app-bar.ts');
    expect(tui.screen()).toContain('@docs/mapping.md');
    expect(tui.screen()).not.toContain('dist/app.js');
    await tui.type('\r');
    expect(tui.screen()).toMatch(/^explain @src\/app\.ts +$/m);
    await tui.type('please\r');
    expect(sent).toEqual(['explain @src/app.ts please']);
  });

  it('a bare @ lists the project from the top; a directory taken with Tab lists its own files', async () => {
    const { tui } = await startProject(transport, { 'src/app.ts': '', 'src/util/strings.ts': '', 'README.md': '' });
    await tui.type('@');
    await shows(tui, '› @README.md');
    await tui.type('s');
    await shows(tui, '› @src/');
    await tui.type('\t');
    await shows(tui, '› @src/app.ts');
    expect(tui.screen()).toContain('@src/util/');
  });
});
