import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TRANSPORTS } from '@pi/test-support';
import { durableMessages, startSessionAndTui, type SessionAndTui } from './session-and-tui';

const running: SessionAndTui[] = [];
afterEach(async () => {
  for (const pair of running.splice(0).reverse()) await pair.close();
});

async function start(transport: (typeof TRANSPORTS)[number]): Promise<SessionAndTui> {
  const pair = await startSessionAndTui(transport, { chat: true });
  running.push(pair);
  // The session's working directory, where its shell commands run.
  const project = join(pair.session.directory, 'project');
  await mkdir(project, { recursive: true });
  await writeFile(join(project, 'marker.txt'), 'here');
  return pair;
}

const userTexts = async (pair: SessionAndTui) =>
  (await durableMessages(pair.session)).flatMap((message) =>
    message.role === 'user' ? message.content.map((part) => part.text) : [],
  );

describe.each(TRANSPORTS)('!command in the TUI over %s', (transport) => {
  it('! runs in the session and its output goes to the model with the next prompt; !! output never does', async () => {
    const pair = await start(transport);
    await pair.tui.type('!ls\r');
    await pair.shows('$ ls');
    await pair.shows('marker.txt');
    await pair.tui.type('!!echo kept-from-the-model\r');
    await pair.shows('(not sent to the model)');
    await pair.shows('kept-from-the-model');

    await pair.tui.type('what is here?\r');
    await pair.shows('You said: what is here?');
    await pair.hides('esc to interrupt');
    const said = await userTexts(pair);
    expect(said).toHaveLength(2);
    expect(said[0]).toContain('$ ls\nmarker.txt');
    expect(said[1]).toBe('what is here?');
    expect(said.join('\n')).not.toContain('kept-from-the-model');
    expect(pair.tui.host.failures()).toEqual([]);
  });

  it('a failing command shows its exit code; Escape stops a running one', async () => {
    const pair = await start(transport);
    await pair.tui.type('!echo broken; exit 4\r');
    await pair.shows('✗ exit code 4');

    await pair.tui.type('!echo started; sleep 30\r');
    await pair.shows('running… · escape to stop');
    await pair.shows('started');
    await pair.tui.type('\x1b');
    await pair.shows('⏹ stopped');
    await pair.hides('running…');
  });

  it('! with no command says what to type and keeps the text; a prompt containing ! is a prompt', async () => {
    const pair = await start(transport);
    await pair.tui.type('!\r');
    await pair.shows('Type a command after !');
    // The editor (between the two rules above the footer) still holds it.
    expect(
      pair.tui
        .screen()
        .split('\n')
        .map((line) => line.trim()),
    ).toContain('!');
    await pair.tui.type('\x03hello!\r');
    await pair.shows('You said: hello!');
  });
});
