import { afterEach, describe, expect, it } from 'vitest';
import { startTestTuiHost, type TestTuiHost } from '@pi/host-tui/testing';
import { BACKGROUND_CONTEXT, withAbortSignal } from '@pi/plugin-api';
import { MAX_CUSTOM_ANSWER_LENGTH, QuestionInteraction, type QuestionRequest } from '@pi/question';
import { eventually, startRpcFixture, type RpcFixture } from '@pi/test-support';
import { questionTuiFacet } from './question-tui-facet';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const COLOURS: QuestionRequest = {
  question: 'Which colour do you like?',
  options: [
    { label: 'red', description: 'warm' },
    { label: 'green', description: null },
    { label: 'blue', description: null },
  ],
};

interface Fixture {
  readonly rpc: RpcFixture;
  readonly tui: TestTuiHost;
  shows(text: string): Promise<void>;
  hides(text: string): Promise<void>;
}

/** A providing host that asks through its interaction broker (the session's role) and a TUI running the facet. */
async function startFixture(): Promise<Fixture> {
  const rpc = await startRpcFixture('loopback');
  cleanups.push(() => rpc.close());
  const tui = await startTestTuiHost({ facets: { '@pi/question': questionTuiFacet }, client: await rpc.connect() });
  cleanups.push(() => tui.stop());
  await eventually(() => rpc.broker.eligibleClients(QuestionInteraction.id).length === 1);
  const painted = (test: (screen: string) => boolean) =>
    eventually(() => {
      tui.host.flush();
      return test(tui.screen());
    });
  return {
    rpc,
    tui,
    shows: (text) => painted((screen) => screen.includes(text)),
    hides: (text) => painted((screen) => !screen.includes(text)),
  };
}

describe('the question TUI facet', () => {
  it('shows the question with numbered options and answers with the one picked', async () => {
    const { rpc, tui, shows } = await startFixture();
    const answer = rpc.broker.request(QuestionInteraction, COLOURS, BACKGROUND_CONTEXT);
    await shows('Which colour do you like?');
    expect(tui.screen()).toContain('1. red — warm');
    expect(tui.screen()).toContain('3. blue');
    expect(tui.screen()).toContain('Type something…');

    await tui.type('\x1b[B\r');
    expect(await answer).toEqual({ outcome: 'selected', index: 1 });
  });

  it('filters the options by what is typed', async () => {
    const { rpc, tui, shows } = await startFixture();
    const answer = rpc.broker.request(QuestionInteraction, COLOURS, BACKGROUND_CONTEXT);
    await shows('Which colour do you like?');
    await tui.type('blu\r');
    expect(await answer).toEqual({ outcome: 'selected', index: 2 });
  });

  it('"Type something…" opens a line whose text is the custom answer', async () => {
    const { rpc, tui, shows } = await startFixture();
    const answer = rpc.broker.request(QuestionInteraction, COLOURS, BACKGROUND_CONTEXT);
    await shows('Which colour do you like?');
    await tui.type('type\r');
    await shows('Your answer');
    await tui.type('  teal  \r');
    expect(await answer).toEqual({ outcome: 'custom', answer: 'teal' });
  });

  it('Esc answers cancelled, in the options and in the answer line alike', async () => {
    const { rpc, tui, shows } = await startFixture();
    const first = rpc.broker.request(QuestionInteraction, COLOURS, BACKGROUND_CONTEXT);
    await shows('Which colour do you like?');
    await tui.type('\x1b');
    expect(await first).toEqual({ outcome: 'cancelled' });

    const second = rpc.broker.request(QuestionInteraction, COLOURS, BACKGROUND_CONTEXT);
    await shows('Which colour do you like?');
    await tui.type('type\r');
    await shows('Your answer');
    await tui.type('\x1b');
    expect(await second).toEqual({ outcome: 'cancelled' });
  });

  it('an empty answer line answers cancelled', async () => {
    const { rpc, tui, shows } = await startFixture();
    const answer = rpc.broker.request(QuestionInteraction, COLOURS, BACKGROUND_CONTEXT);
    await shows('Which colour do you like?');
    await tui.type('type\r');
    await shows('Your answer');
    await tui.type('   \r');
    expect(await answer).toEqual({ outcome: 'cancelled' });
  });

  it('asks again for an answer longer than the contract takes, instead of letting the question fail', async () => {
    const { rpc, tui, shows } = await startFixture();
    const answer = rpc.broker.request(QuestionInteraction, COLOURS, BACKGROUND_CONTEXT);
    await shows('Which colour do you like?');
    await tui.type('type\r');
    await shows('Your answer');
    await tui.type(`\x1b[200~${'x'.repeat(MAX_CUSTOM_ANSWER_LENGTH + 1)}\x1b[201~\r`);
    await shows(`at most ${MAX_CUSTOM_ANSWER_LENGTH} characters`);
    await tui.type('teal\r');
    expect(await answer).toEqual({ outcome: 'custom', answer: 'teal' });
  });

  it('closes the dialog when the session cancels the question', async () => {
    const { rpc, tui, shows, hides } = await startFixture();
    const abort = new AbortController();
    const answer = rpc.broker.request(QuestionInteraction, COLOURS, withAbortSignal(abort.signal, BACKGROUND_CONTEXT));
    await shows('Which colour do you like?');
    abort.abort();
    await expect(answer).rejects.toMatchObject({ code: 'cancelled' });
    await hides('Which colour do you like?');
    expect(tui.host.failures()).toEqual([]);
  });

  it('stops answering questions when the TUI stops', async () => {
    const { rpc, tui } = await startFixture();
    await tui.stop();
    await eventually(() => rpc.broker.eligibleClients(QuestionInteraction.id).length === 0);
  });
});
