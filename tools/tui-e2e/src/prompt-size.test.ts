import { afterEach, describe, expect, it } from 'vitest';
import { OFFLINE_CONTEXT_WINDOW } from '@pi/model-providers';
import { TRANSPORTS } from '@pi/test-support';
import { durableMessages, startSessionAndTui, type SessionAndTui } from './session-and-tui';

const running: SessionAndTui[] = [];
afterEach(async () => {
  for (const pair of running.splice(0).reverse()) await pair.close();
});

const paste = (text: string) => `\x1b[200~${text}\x1b[201~`;

describe.each(TRANSPORTS)('a prompt larger than the context window, over %s', (transport) => {
  it('is refused with the estimate and the window, and stays in the editor', async () => {
    const pair = await startSessionAndTui(transport, { chat: true });
    running.push(pair);
    // Four characters a token: comfortably more than the offline model's window.
    const huge = `head-marker ${'lorem ipsum '.repeat((OFFLINE_CONTEXT_WINDOW * 4) / 10)}tail-marker`;
    await pair.tui.type(paste(huge));
    await pair.tui.type('\r');
    await pair.shows('The prompt is ~');
    expect(pair.tui.screen()).toMatch(/The prompt is ~[\d,]+ tokens; the context window of offline\/\S+ holds 32,768/);
    // The whole text is back in the editor, as the paste it was, and nothing reached the session.
    await pair.shows(`[paste #1 ${huge.length.toLocaleString('en-US')} chars]`);
    expect(await durableMessages(pair.session)).toEqual([]);
    expect(pair.tui.host.failures()).toEqual([]);
  });
});
