import { afterEach, describe, expect, it } from 'vitest';
import { TRANSPORTS } from '@pi/test-support';
import { startSessionAndTui, type SessionAndTui } from './session-and-tui';

const running: SessionAndTui[] = [];
afterEach(async () => {
  for (const pair of running.splice(0).reverse()) await pair.close();
});

const osc52 = (text: string) => `\x1b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\x07`;

describe.each(TRANSPORTS)('/copy over %s', (transport) => {
  it("puts the model's last answer on the clipboard through the terminal, and says so", async () => {
    const pair = await startSessionAndTui(transport, { chat: true });
    running.push(pair);
    await pair.tui.type('/copy\r');
    await pair.shows('Nothing to copy yet');
    expect(pair.tui.terminal.written()).not.toContain('\x1b]52;');

    await pair.tui.type('first question\r');
    await pair.shows('You said: first question');
    await pair.hides('esc to interrupt');
    await pair.tui.type('second question\r');
    await pair.shows('You said: second question');
    // The answer is in the transcript once its run has ended (until then it is streaming text).
    await pair.hides('esc to interrupt');
    await pair.tui.type('/copy\r');
    await pair.shows('Copied the last answer');
    expect(pair.tui.terminal.written()).toContain(osc52('You said: second question'));
    expect(pair.tui.terminal.written()).not.toContain(osc52('You said: first question'));
  });
});
