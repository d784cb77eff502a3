import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Models } from '@pi/providers-builtin';
import { TRANSPORTS, eventually, startAuthorizationServer, type TransportKind } from '@pi/test-support';
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

  it('/login openrouter signs in through the browser: the address shown whole, the landing address pasted, the key stored', async () => {
    vi.stubEnv('PI_NO_BROWSER', '1');
    const server = await startAuthorizationServer();
    try {
      const { session, tui, shows } = await start(transport);
      // OpenRouter's own flow, pointed at the local authorization server as a proxy's users would point it.
      const login = {
        flow: 'authorization_code',
        dialect: 'openrouter',
        authorizeUrl: `${server.origin}/auth`,
        tokenUrl: `${server.origin}/keys`,
        redirectUri: 'http://localhost:3000/pi-login',
      };
      await writeFile(
        join(session.directory, 'config', 'models.json'),
        JSON.stringify({ providers: { openrouter: { login, models: [{ id: 'pi/oauth-test' }] } } }),
      );
      // The model it adds says the file was read.
      const models = await (await session.connect()).use(Models);
      await eventually(() =>
        models.state.value.catalog.availableModels.some((model) => model.modelId === 'pi/oauth-test'),
      );
      await tui.type('/login openrouter\r');
      await shows('Sign in to openrouter');
      const screen = tui.screen().split('\n');
      const first = screen.findIndex((line) => line.startsWith(`${server.origin}/auth?`));
      const last = screen.findIndex((line, index) => index > first && line.trim() === '');
      const address = screen
        .slice(first, last)
        .map((line) => line.trimEnd())
        .join('');
      expect(screen[first - 1]).toContain('Open this address in a browser:');

      const landing = server.signIn(address);
      await tui.type(`\x1b[200~${landing}\x1b[201~`);
      await tui.type('\r');
      await shows('Key stored for openrouter');
      const files = await filesUnder(session.directory);
      const code = new URL(landing).searchParams.get('code') ?? '';
      expect(files.filter((file) => file.text.includes(server.token)).map((file) => file.path)).toEqual([
        join(session.directory, 'config', 'credentials.json'),
      ]);
      expect(files.some((file) => file.text.includes(code))).toBe(false);
    } finally {
      vi.unstubAllEnvs();
      await server.close();
    }
  });

  it('/login with a device code shows the code to type and closes by itself once the provider has the approval', async () => {
    const server = await startAuthorizationServer();
    try {
      server.deviceTerms({ interval: 1, expiresIn: 600 });
      server.answerDevicePolls(['authorization_pending']);
      const { session, tui, shows, hides } = await start(transport);
      const login = {
        flow: 'device_code',
        deviceAuthorizationUrl: `${server.origin}/device`,
        tokenUrl: `${server.origin}/token`,
        clientId: 'pi',
      };
      const gateway = { baseUrl: 'http://127.0.0.1:9/v1', login, models: [{ id: 'gateway-model' }] };
      await writeFile(join(session.directory, 'config', 'models.json'), JSON.stringify({ providers: { gateway } }));
      const models = await (await session.connect()).use(Models);
      await eventually(() =>
        models.state.value.catalog.availableModels.some((model) => model.modelId === 'gateway-model'),
      );
      await tui.type('/login gateway\r');
      await shows('WDJB-MJHT');
      expect(tui.screen()).toContain(`${server.origin}/activate?user_code=WDJB-MJHT`);
      // The person approves on the page; the next poll has the token, and the dialog closes without a key pressed.
      server.answerDevicePolls(['token']);
      await shows('Key stored for gateway');
      await hides('WDJB-MJHT');
      const files = await filesUnder(session.directory);
      expect(files.filter((file) => file.text.includes(server.token)).map((file) => file.path)).toEqual([
        join(session.directory, 'config', 'credentials.json'),
      ]);
    } finally {
      await server.close();
    }
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
