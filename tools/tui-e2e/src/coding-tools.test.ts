import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { chatSessionFacet } from '@pi/chat-session';
import { chatTuiFacet } from '@pi/chat-tui';
import { modelProviderFacet, startTestSessionHost } from '@pi/host-session/testing';
import { startTestTuiHost, type TestTuiHost } from '@pi/host-tui/testing';
import { createOfflineProvider } from '@pi/model-providers';
import { TRANSPORTS, type TransportKind } from '@pi/test-support';
import { pluginId as toolsCoreId, toolsCoreSessionFacet } from '@pi/tools-core-session';
import { toolsCoreTuiFacet } from '@pi/tools-core-tui';
import { hides, shows } from './session-and-tui';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface CodingTui {
  readonly tui: TestTuiHost;
  /** The session's working directory. */
  readonly project: string;
  shows(text: string): Promise<void>;
  /** Waits until the run has settled (the busy line is gone), so the next prompt is not refused as busy. */
  settled(): Promise<void>;
}

/**
 * A real session host running the offline model, chat and tools-core on a temporary project, and a TUI running
 * the chat and tools-core TUI facets, attached over `transport`.
 */
async function startCodingTui(transport: TransportKind, files: Record<string, string>): Promise<CodingTui> {
  const session = await startTestSessionHost({
    transport,
    facets: [
      { id: '@pi/providers-builtin', facet: modelProviderFacet(createOfflineProvider()) },
      { id: '@pi/chat', facet: chatSessionFacet },
      { id: toolsCoreId, facet: toolsCoreSessionFacet },
    ],
  });
  cleanups.push(() => session.close());
  const project = join(session.directory, 'project');
  await mkdir(project, { recursive: true });
  for (const [name, content] of Object.entries(files)) await writeFile(join(project, name), content);
  const tui = await startTestTuiHost({
    facets: { '@pi/chat': chatTuiFacet, [toolsCoreId]: toolsCoreTuiFacet },
    client: await session.connect(),
    columns: 100,
    rows: 40,
  });
  cleanups.push(() => tui.stop());
  return {
    tui,
    project,
    async shows(text) {
      await shows(tui, text);
    },
    async settled() {
      await hides(tui, 'esc to interrupt');
    },
  };
}

describe.each(TRANSPORTS)('the coding tools in the terminal over %s', (transport) => {
  it('the offline model reads a file and edits one from plain prompts, and the transcript shows the diff', async () => {
    const { tui, project, shows, settled } = await startCodingTui(transport, {
      'README.md': '# Demo\n\nA project.\n',
      'greet.txt': 'one\nhello world\nthree\n',
    });

    await tui.type('read README.md\r');
    await shows('read README.md');
    await shows('✓ lines 1-3 of 3');
    await shows('The read tool returned: # Demo');
    await settled();

    await tui.type('replace hello with goodbye in greet.txt\r');
    await shows('edit greet.txt');
    await shows('✓ edited greet.txt +1 -1');
    await shows('@@ -1,3 +1,3 @@');
    await shows('-hello world');
    await shows('+goodbye world');
    await shows('The edit tool returned: Replaced 1 occurrence in greet.txt');
    expect(await readFile(join(project, 'greet.txt'), 'utf8')).toBe('one\ngoodbye world\nthree\n');
  });

  it('shows an ambiguous edit as failed, and the file stays as it was', async () => {
    const { tui, project, shows } = await startCodingTui(transport, { 'twice.txt': 'x = 1\nx = 1\n' });
    await tui.type('replace "x = 1" with "x = 2" in twice.txt\r');
    await shows('✗ The text to replace occurs 2 times in twice.txt (lines 1, 2)');
    expect(await readFile(join(project, 'twice.txt'), 'utf8')).toBe('x = 1\nx = 1\n');
  });

  it('shows the last lines of a command’s output, collapsed', async () => {
    const { tui, shows } = await startCodingTui(transport, {});
    await tui.type('run `seq 1 12`\r');
    await shows('bash $ seq 1 12');
    await shows('✓ exit 0');
    await shows('… 7 earlier lines (ctrl+o)');
    const rows = tui
      .screen()
      .split('\n')
      .map((row) => row.trim());
    const hint = rows.indexOf('… 7 earlier lines (ctrl+o)');
    expect(rows.slice(hint - 1, hint + 6)).toEqual([
      '✓ exit 0',
      '… 7 earlier lines (ctrl+o)',
      '8',
      '9',
      '10',
      '11',
      '12',
    ]);
  });
});
