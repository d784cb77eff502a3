import { afterEach, describe, expect, it } from 'vitest';
import { startTestTuiHost, startViewsStandIn, type TestTuiHost } from '@pi/host-tui/testing';
import type { JsonValue } from '@pi/plugin-api';
import { MAX_CUSTOM_ANSWER_LENGTH, QuestionView, type QuestionRequest } from '@pi/question';
import { TRANSPORTS, eventually, type TransportKind } from '@pi/test-support';
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
  readonly tui: TestTuiHost;
  /** Opens a question view, as the session's question tool does; resolves with the first answer sent to it. */
  ask(request: QuestionRequest): { viewId: string; answer: Promise<JsonValue> };
  close(viewId: string): void;
  readonly shown: string[][];
  shows(text: string): Promise<void>;
  hides(text: string): Promise<void>;
}

/** A stand-in for the session's views service and a TUI running the facet. */
async function startFixture(transport: TransportKind): Promise<Fixture> {
  const waiting = new Map<string, (message: JsonValue) => void>();
  const session = await startViewsStandIn(transport, (viewId, message) => waiting.get(viewId)?.(message));
  cleanups.push(() => session.stop());
  const tui = await startTestTuiHost({ facets: { '@pi/question': questionTuiFacet }, client: await session.connect() });
  cleanups.push(() => tui.stop());
  let asked = 0;
  return {
    tui,
    shown: session.shown,
    ask(request) {
      asked += 1;
      const viewId = `@pi/question:${asked}`;
      const answer = new Promise<JsonValue>((resolve) =>
        waiting.set(viewId, (message) => {
          session.close(viewId);
          resolve(message);
        }),
      );
      session.openView(viewId, QuestionView.component, request as unknown as JsonValue, { durable: true });
      return { viewId, answer };
    },
    close: (viewId) => session.close(viewId),
    shows: (text) => tui.waitForScreen((screen) => screen.includes(text)).then(() => undefined),
    hides: (text) => tui.waitForScreen((screen) => !screen.includes(text)).then(() => undefined),
  };
}

describe.each(TRANSPORTS)('the question TUI facet over %s', (transport) => {
  it('tells the session it shows questions', async () => {
    const { shown } = await startFixture(transport);
    await eventually(() => shown.some((components) => components.includes(QuestionView.component)));
  });

  it('shows the question with numbered options over the transcript and answers with the one picked', async () => {
    const { tui, ask, shows } = await startFixture(transport);
    const { answer } = ask(COLOURS);
    await shows('Which colour do you like?');
    expect(tui.screen()).toContain('1. red — warm');
    expect(tui.screen()).toContain('3. blue');
    expect(tui.screen()).toContain('Type something…');

    await tui.type('\x1b[B\r');
    expect(await answer).toEqual({ outcome: 'selected', index: 1 });
  });

  it('filters the options by what is typed', async () => {
    const { tui, ask, shows } = await startFixture(transport);
    const { answer } = ask(COLOURS);
    await shows('Which colour do you like?');
    await tui.type('blu\r');
    expect(await answer).toEqual({ outcome: 'selected', index: 2 });
  });

  it('"Type something…" opens a line whose text is the custom answer', async () => {
    const { tui, ask, shows } = await startFixture(transport);
    const { answer } = ask(COLOURS);
    await shows('Which colour do you like?');
    await tui.type('type\r');
    await shows('Your answer');
    await tui.type('  teal  \r');
    expect(await answer).toEqual({ outcome: 'custom', answer: 'teal' });
  });

  it('Esc answers cancelled, in the options and in the answer line alike', async () => {
    const { tui, ask, shows, hides } = await startFixture(transport);
    const first = ask(COLOURS);
    await shows('Which colour do you like?');
    await tui.type('\x1b');
    expect(await first.answer).toEqual({ outcome: 'cancelled' });
    await hides('Which colour do you like?');

    const second = ask(COLOURS);
    await shows('Which colour do you like?');
    await tui.type('type\r');
    await shows('Your answer');
    await tui.type('\x1b');
    expect(await second.answer).toEqual({ outcome: 'cancelled' });
  });

  it('an empty answer line answers cancelled', async () => {
    const { tui, ask, shows } = await startFixture(transport);
    const { answer } = ask(COLOURS);
    await shows('Which colour do you like?');
    await tui.type('type\r');
    await shows('Your answer');
    await tui.type('   \r');
    expect(await answer).toEqual({ outcome: 'cancelled' });
  });

  it('asks again for an answer longer than the contract takes, instead of letting the question fail', async () => {
    const { tui, ask, shows } = await startFixture(transport);
    const { answer } = ask(COLOURS);
    await shows('Which colour do you like?');
    await tui.type('type\r');
    await shows('Your answer');
    await tui.type(`\x1b[200~${'x'.repeat(MAX_CUSTOM_ANSWER_LENGTH + 1)}\x1b[201~\r`);
    await shows(`at most ${MAX_CUSTOM_ANSWER_LENGTH} characters`);
    await tui.type('teal\r');
    expect(await answer).toEqual({ outcome: 'custom', answer: 'teal' });
  });

  it('takes the question away when the session closes it, and the editor has the keys again', async () => {
    const { tui, ask, close, shows, hides } = await startFixture(transport);
    const { viewId } = ask(COLOURS);
    await shows('Which colour do you like?');
    close(viewId);
    await hides('Which colour do you like?');
    await tui.type('x');
    expect(tui.host.draft()).toBe('x');
    expect(tui.host.failures()).toEqual([]);
  });
});
