import { afterEach, describe, expect, it } from 'vitest';
import { Accounts, KeyEntryInteraction, type AccountsState, type KeyEntryResponse } from '@pi/accounts';
import { startTestTuiHost, type TestTuiHost } from '@pi/host-tui/testing';
import { createRemoteState, type InteractionBroker } from '@pi/remote';
import { eventually, startRpcFixture } from '@pi/test-support';
import { accountsTuiFacet } from './accounts-tui-facet';

const KEY = 'sk-ant-from-the-keyboard-42';
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Fixture {
  readonly tui: TestTuiHost;
  /** What the stand-in session received: each login's answer, each removal. */
  readonly answers: KeyEntryResponse[];
  readonly removed: string[];
  shows(text: string): Promise<void>;
}

/** A stand-in session whose `login` asks the TUI for the key over the real interaction path, as the session does. */
async function startFixture(state: AccountsState): Promise<Fixture> {
  const answers: KeyEntryResponse[] = [];
  const removed: string[] = [];
  // The broker exists once the fixture has started; the stand-in reads it when a login comes.
  const host: { broker?: InteractionBroker } = {};
  const rpc = await startRpcFixture('loopback', {
    provide: (registry) =>
      registry.provide(Accounts, {
        state: createRemoteState(state),
        async login(provider, context) {
          const answer = await (host.broker as InteractionBroker).request(KeyEntryInteraction, { provider }, context);
          answers.push(answer);
          return { outcome: answer.outcome === 'entered' ? 'stored' : 'cancelled' };
        },
        setKey: async () => undefined,
        remove: async (provider) => void removed.push(provider),
      }),
  });
  host.broker = rpc.broker;
  cleanups.push(() => rpc.close());
  const tui = await startTestTuiHost({ facets: { '@pi/accounts': accountsTuiFacet }, client: await rpc.connect() });
  cleanups.push(() => tui.stop());
  const shows = (text: string) =>
    eventually(() => {
      tui.host.flush();
      return tui.screen().includes(text);
    });
  return { tui, answers, removed, shows };
}

const PROVIDERS: AccountsState = {
  providers: [
    { provider: 'offline', configured: false },
    { provider: 'anthropic', configured: false },
    { provider: 'openai', configured: true },
  ],
};

describe('the accounts TUI facet', () => {
  it('/login answers the session’s key request from a masked field, and says the key is stored', async () => {
    const { tui, answers, shows } = await startFixture(PROVIDERS);
    await tui.type('/login anthropic\r');
    await shows('API key for anthropic');
    await tui.type(KEY);
    await shows('•'.repeat(KEY.length));
    expect(tui.screen()).not.toContain(KEY.slice(0, 6));
    await tui.type('\r');
    await shows('Key stored for anthropic');
    expect(answers).toEqual([{ outcome: 'entered', key: KEY }]);
  });

  it('Esc, or an empty field, cancels the login', async () => {
    const { tui, answers, shows } = await startFixture(PROVIDERS);
    await tui.type('/login anthropic\r');
    await shows('API key for anthropic');
    await tui.type('\x1b');
    await shows('Login to anthropic cancelled');
    await tui.type('/login anthropic\r');
    await shows('API key for anthropic');
    await tui.type('  \r');
    await eventually(() => answers.length === 2);
    expect(answers).toEqual([{ outcome: 'cancelled' }, { outcome: 'cancelled' }]);
  });

  it('/login without a provider offers those that take a key; /logout only those that have one', async () => {
    const { tui, removed, shows } = await startFixture(PROVIDERS);
    await tui.type('/login\r');
    await shows('Log in to which provider?');
    expect(tui.screen()).toContain('openai  (key stored)');
    expect(tui.screen()).not.toContain('offline');
    await tui.type('\x1b');
    await tui.type('/logout\r');
    await shows('Log out of which provider?');
    expect(tui.screen()).not.toContain('anthropic');
    await tui.type('\r');
    await shows('Key removed for openai');
    expect(removed).toEqual(['openai']);
  });
});
