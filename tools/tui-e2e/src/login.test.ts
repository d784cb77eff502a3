import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TRANSPORTS, type TransportKind } from '@pi/test-support';
import { startSessionAndTui, type SessionAndTui } from './session-and-tui';

const KEY = 'sk-ant-typed-into-the-tui-0123456789';
const running: SessionAndTui[] = [];
afterEach(async () => {
  for (const pair of running.splice(0).reverse()) await pair.close();
});

async function start(transport: TransportKind): Promise<SessionAndTui> {
  const pair = await startSessionAndTui(transport, { accounts: true, chat: true });
  running.push(pair);
  return pair;
}

/** Every file under `directory` (the session's data and config), read as text. */
async function filesUnder(directory: string): Promise<Array<{ path: string; text: string }>> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  return Promise.all(
    entries
      .filter((entry) => entry.isFile())
      .map(async (entry) => {
        const path = join(entry.parentPath, entry.name);
        return { path, text: await readFile(path, 'utf8').catch(() => '') };
      }),
  );
}

describe.each(TRANSPORTS)('/login and /logout over %s', (transport) => {
  it('a key typed into the masked field is stored, shown nowhere, and the picker stops saying "no key"', async () => {
    const { session, tui, shows, hides } = await start(transport);
    await tui.type('\x0c');
    await shows('anthropic/claude-sonnet-4-5 — Claude Sonnet 4.5  (no key: /login)');
    await tui.type('\x1b');

    await tui.type('/login anthropic\r');
    await shows('API key for anthropic');
    const screens: string[] = [];
    for (const character of KEY) {
      await tui.type(character);
      screens.push(tui.screen());
    }
    await shows('•'.repeat(KEY.length));
    await tui.type('\r');
    await shows('Key stored for anthropic');

    await tui.type('\x0c');
    await shows('anthropic/claude-sonnet-4-5 — Claude Sonnet 4.5');
    await hides('Claude Sonnet 4.5  (no key');
    await tui.type('\x1b');

    expect(screens.some((screen) => screen.includes(KEY.slice(0, 8)))).toBe(false);
    const files = await filesUnder(session.directory);
    const holding = files.filter((file) => file.text.includes(KEY)).map((file) => file.path);
    // Only the credential store holds it: not the session file, not the editor's history.
    expect(holding).toEqual([join(session.directory, 'config', 'credentials.json')]);

    await tui.type('/logout anthropic\r');
    await shows('Key removed for anthropic');
    await tui.type('\x0c');
    await shows('anthropic/claude-sonnet-4-5 — Claude Sonnet 4.5  (no key: /login)');
  });

  it('Esc in the key field cancels the login and stores nothing', async () => {
    const { session, tui, shows } = await start(transport);
    await tui.type('/login openai\r');
    await shows('API key for openai');
    await tui.type('sk-half');
    await tui.type('\x1b');
    await shows('Login to openai cancelled');
    const files = await filesUnder(session.directory);
    expect(files.some((file) => file.text.includes('sk-half'))).toBe(false);
  });
});
