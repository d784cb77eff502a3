import { afterEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import type { CodingAgentTuiPluginContext } from '@pi/plugin-api';
import { Ask, TRANSPORTS, eventually, startRpcFixture, type AskResponse } from '@pi/test-support';
import { startTestTuiHost } from './testing';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.each(TRANSPORTS)('awaiting the user’s answer over %s', (transport) => {
  it('is true while a session interaction’s handler runs, and false once it answers or throws', async () => {
    const rpc = await startRpcFixture(transport);
    cleanups.push(() => rpc.close());
    let ui: CodingAgentTuiPluginContext['ui'] | undefined;
    const pending: Array<{ answer: (response: AskResponse) => void; fail: (error: Error) => void }> = [];
    const tui = await startTestTuiHost({
      facets: {
        '@t/asker': (context) => {
          ui = context.ui;
          context.interactions.handle(
            Ask,
            () => new Promise<AskResponse>((answer, fail) => void pending.push({ answer, fail })),
          );
        },
      },
      client: await rpc.connect(),
    });
    cleanups.push(() => tui.stop());
    expect(ui?.awaitingAnswer()).toBe(false);
    // The handler's subscription reaches the session before it can be asked.
    await eventually(() => rpc.stats().some((stats) => stats.subscriptions > 0));

    const asked = rpc.broker.request(Ask, { question: 'which?', options: ['a'] }, BACKGROUND_CONTEXT);
    await eventually(() => pending.length === 1);
    expect(ui?.awaitingAnswer()).toBe(true);
    pending[0]?.answer({ outcome: 'selected', index: 0 });
    await expect(asked).resolves.toEqual({ outcome: 'selected', index: 0 });
    expect(ui?.awaitingAnswer()).toBe(false);

    const failed = rpc.broker.request(Ask, { question: 'again?', options: [] }, BACKGROUND_CONTEXT);
    await eventually(() => pending.length === 2);
    expect(ui?.awaitingAnswer()).toBe(true);
    pending[1]?.fail(new Error('the dialog broke'));
    await expect(failed).rejects.toThrow();
    expect(ui?.awaitingAnswer()).toBe(false);
  });
});
