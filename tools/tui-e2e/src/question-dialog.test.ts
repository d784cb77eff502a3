import { afterEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { TRANSPORTS, type TransportKind } from '@pi/test-support';
import { durableToolResult, finalAnswer, startSessionAndTui, type SessionAndTui } from './session-and-tui';

/** The offline model calls the question tool for a prompt that says "ask me …: a, b or c". */
const ASK_COLOUR = 'ask me which color I like: red, green or blue';
const QUESTION = 'Which color I like?';

const running: SessionAndTui[] = [];
afterEach(async () => {
  for (const pair of running.splice(0).reverse()) await pair.close();
});

async function start(transport: TransportKind): Promise<SessionAndTui> {
  const pair = await startSessionAndTui(transport);
  running.push(pair);
  return pair;
}

describe.each(TRANSPORTS)('the question dialog over %s', (transport) => {
  it('appears when the model asks, and the option picked becomes the durable tool result', async () => {
    const { session, tui, lane, prompt, shows, hides } = await start(transport);
    const operationId = await prompt(ASK_COLOUR);
    await shows(QUESTION);
    expect(tui.screen()).toContain('1. red');
    expect(tui.screen()).toContain('Type something…');

    await tui.type('green\r');
    await hides(QUESTION);

    expect(await lane.settled(operationId)).toEqual({ outcome: 'completed', error: null });
    expect(await durableToolResult(session)).toMatchObject({
      toolName: 'question',
      isError: false,
      content: [{ type: 'text', text: 'User selected: 2. green' }],
      details: { answer: 'green', wasCustom: false },
    });
    expect(await finalAnswer(session)).toContain('User selected: 2. green');
  });

  it('"Type something…" takes a typed answer, recorded as custom', async () => {
    const { session, tui, lane, prompt, shows } = await start(transport);
    const operationId = await prompt(ASK_COLOUR);
    await shows(QUESTION);
    await tui.type('type\r');
    await shows('Your answer');
    await tui.type('teal\r');

    await lane.settled(operationId);
    expect(await durableToolResult(session)).toMatchObject({
      isError: false,
      content: [{ type: 'text', text: 'User wrote: teal' }],
      details: { answer: 'teal', wasCustom: true },
    });
  });

  it('Esc answers cancelled and the run goes on', async () => {
    const { session, tui, lane, prompt, shows, hides } = await start(transport);
    const operationId = await prompt(ASK_COLOUR);
    await shows(QUESTION);
    await tui.type('\x1b');
    await hides(QUESTION);

    expect(await lane.settled(operationId)).toEqual({ outcome: 'completed', error: null });
    expect(await durableToolResult(session)).toMatchObject({
      isError: false,
      content: [{ type: 'text', text: 'User cancelled the question' }],
      details: { answer: null },
    });
  });

  it('aborting the run closes the open dialog', async () => {
    const { session, tui, lane, prompt, shows, hides } = await start(transport);
    const operationId = await prompt(ASK_COLOUR);
    await shows(QUESTION);

    expect((await lane.requestAbort(operationId, BACKGROUND_CONTEXT)).isOk()).toBe(true);
    await hides(QUESTION);

    expect(await lane.settled(operationId)).toEqual({ outcome: 'aborted', error: null });
    expect((await durableToolResult(session)).content[0]?.text).toContain('(cancelled)');
    expect(tui.host.failures()).toEqual([]);
  });
});
