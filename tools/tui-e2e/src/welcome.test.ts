import { afterEach, describe, expect, it } from 'vitest';
import { TRANSPORTS } from '@pi/test-support';
import { startSessionAndTui, type SessionAndTui } from './session-and-tui';

const running: SessionAndTui[] = [];
afterEach(async () => {
  for (const pair of running.splice(0).reverse()) await pair.close();
});

describe.each(TRANSPORTS)('the first screen of a new session over %s', (transport) => {
  it('welcomes at 80 columns: how to prompt, the model and how to change it, how to log in, what the offline model understands', async () => {
    const pair = await startSessionAndTui(transport, { accounts: true, chat: true });
    running.push(pair);
    await pair.shows('Welcome to pi.');
    await pair.shows('Model: offline/echo');
    const screen = pair.tui.screen();
    // Wrapped at spaces: rows joined by one space read as the paragraphs were written.
    const text = screen
      .split('\n')
      .map((row) => row.trim())
      .join(' ');
    expect(text).toContain('Type a request and press enter');
    expect(text).toContain('/help lists commands and keys');
    expect(text).toMatch(/ctrl\+l picks another, ctrl\+t the thinking level; \/login adds a provider's key/);
    expect(text).toContain('The offline model needs no key or network; it understands: read README.md');
    expect(text).toContain('replace old with new in notes.txt');
    expect(text).toContain('!command runs a shell command; the model reads its output');

    // The welcome gives way to the conversation.
    await pair.tui.type('read README.md\r');
    await pair.hides('Welcome to pi.');
  });

  it('says nothing of the offline model once another one is selected', async () => {
    const pair = await startSessionAndTui(transport, { accounts: true, chat: true });
    running.push(pair);
    await pair.shows('The offline model needs no key');
    await pair.tui.type('/model offline/thinker\r');
    await pair.shows('Model: offline/thinker');
    await pair.shows('The offline model needs no key');
    await pair.tui.type('/model anthropic/claude-sonnet-4-5\r');
    await pair.shows('Model: anthropic/claude-sonnet-4-5');
    await pair.hides('The offline model needs no key');
  });
});
