import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TRANSPORTS } from '@pi/test-support';
import { startSessionAndTui, type SessionAndTui } from './session-and-tui';

const running: SessionAndTui[] = [];
afterEach(async () => {
  for (const pair of running.splice(0).reverse()) await pair.close();
});

/** A session and TUI with one prompt answered; the session's working directory. */
async function start(transport: (typeof TRANSPORTS)[number]): Promise<{ pair: SessionAndTui; project: string }> {
  const pair = await startSessionAndTui(transport, { chat: true });
  running.push(pair);
  const project = join(pair.session.directory, 'project');
  await mkdir(project, { recursive: true });
  await pair.tui.type('an <em>exported</em> prompt\r');
  await pair.shows('You said: an <em>exported</em> prompt');
  await pair.hides('esc to interrupt');
  return { pair, project };
}

describe.each(TRANSPORTS)('/export over %s', (transport) => {
  it('writes the session beside the project and says where', async () => {
    const { pair, project } = await start(transport);
    await pair.tui.type('/export\r');
    await pair.shows('Exported the session to');
    const path = /Exported the session to (\S+\.html)/.exec(pair.tui.screen().replace(/\n/g, ''))?.[1] ?? '';
    expect(path.startsWith(join(project, 'pi-session-'))).toBe(true);
    const html = await readFile(path, 'utf8');
    expect(html).toContain('an &lt;em&gt;exported&lt;/em&gt; prompt');
  });

  it('asks before replacing a file, and leaves it when told no', async () => {
    const { pair, project } = await start(transport);
    const path = join(project, 'page.html');
    await writeFile(path, 'mine');
    await pair.tui.type('/export page.html\r');
    await pair.shows('Replace the file?');
    await pair.tui.type('n');
    await pair.shows('Not exported: the file was left as it was');
    expect(await readFile(path, 'utf8')).toBe('mine');

    await pair.tui.type('/export page.html\r');
    await pair.shows('Replace the file?');
    await pair.tui.type('y');
    await pair.shows(`Exported the session to ${path}`);
    expect(await readFile(path, 'utf8')).toContain('<!doctype html>');
  });

  it('says why when the directory is missing', async () => {
    const { pair, project } = await start(transport);
    await pair.tui.type('/export missing/page.html\r');
    // A notice is one line, cut at the screen's width: the temporary directory's path is long.
    await pair.shows(`Not exported: The directory ${join(project, 'missing')} does not`);
  });
});
