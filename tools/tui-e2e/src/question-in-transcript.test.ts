import { afterEach, describe, expect, it } from 'vitest';
import { TRANSPORTS, type TransportKind } from '@pi/test-support';
import { startSessionAndTui, type SessionAndTui } from './session-and-tui';

const running: SessionAndTui[] = [];
afterEach(async () => {
  for (const pair of running.splice(0).reverse()) await pair.close();
});

async function start(transport: TransportKind): Promise<SessionAndTui> {
  const pair = await startSessionAndTui(transport, { chat: true });
  running.push(pair);
  return pair;
}

describe.each(TRANSPORTS)('a question asked from the prompt editor over %s', (transport) => {
  it('shows the call with its options, and the chosen answer once the tool returns', async () => {
    const { tui, shows, hides } = await start(transport);
    await tui.type('ask me which color I like: red, green or blue\r');
    await shows('Which color I like?');
    // While the question is open the run waits on the user, and its status says so instead of "working".
    await shows('waiting for your answer');
    expect(tui.screen()).not.toContain('working…');
    await tui.type('green\r');
    await hides('Type something…');
    await hides('waiting for your answer');

    await shows('Options: 1. red, 2. green, 3. blue');
    await shows('✓ green');
  });

  it('shows a typed answer as written, and a cancelled question as cancelled', async () => {
    const { tui, shows, hides } = await start(transport);
    await tui.type('ask me which color I like: red, green or blue\r');
    await shows('Which color I like?');
    await tui.type('type\r');
    await shows('Your answer');
    await tui.type('teal\r');
    await shows('✓ (wrote) teal');
    // The run goes on after the tool result (the model answers); a prompt sent before it settles is refused as busy.
    await hides('esc to interrupt');

    await tui.type('ask me which fruit: apple or pear\r');
    await shows('Which fruit?');
    await tui.type('\x1b');
    await shows('Cancelled');
  });
});
