import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineView, type JsonValue, type ViewComponent } from '@pi/plugin-api';
import { RemoteError } from '@pi/remote';
import { TRANSPORTS, eventually, type TransportKind } from '@pi/test-support';
import { startTestTuiHost, startViewsStandIn } from './testing';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const Tally = defineView('test.tally', {
  state: z.object({ count: z.number() }),
  message: z.object({ key: z.string() }),
});

/** A session stand-in serving the views service; it refuses a message that does not fit `test.tally`. */
async function viewsSession(transport: TransportKind) {
  const received: Array<{ viewId: string; message: JsonValue }> = [];
  const session = await startViewsStandIn(transport, (viewId, message) => {
    if (typeof message !== 'object' || message === null || !('key' in message)) {
      throw new RemoteError('invalid_argument', 'The message does not fit view "test.tally"');
    }
    received.push({ viewId, message });
  });
  cleanups.push(() => session.stop());
  return { ...session, received };
}

function tallyComponent(placement: ViewComponent<{ count: number }, { key: string }>['placement']) {
  const failures: string[] = [];
  const component: ViewComponent<{ count: number }, { key: string }> = {
    definition: Tally,
    placement,
    dismissible: true,
    create: (view) => ({
      render: () => [`tally ${view.state.count}`],
      handleKey(key) {
        if (key.name === 'escape') return false;
        view.send(key.text === '!' ? ({ bad: true } as never) : { key: key.name }).catch((error: Error) => {
          failures.push(error.message);
        });
        return true;
      },
    }),
  };
  return { component, failures };
}

describe.each(TRANSPORTS)('views in the TUI over %s', (transport) => {
  it('renders a view in its component’s slot from its state, live, and drops it when it closes', async () => {
    const session = await viewsSession(transport);
    session.openView('p:1', 'test.tally', { count: 1 });
    const { component } = tallyComponent('editor.above');
    const tui = await startTestTuiHost({
      facets: { '@t/tally': (context) => void context.views.add(component) },
      client: await session.connect(),
    });
    cleanups.push(() => tui.stop());
    await tui.waitForScreen((screen) => screen.includes('tally 1'));

    session.setState('p:1', { count: 2 });
    await tui.waitForScreen((screen) => screen.includes('tally 2'));
    session.close('p:1');
    await tui.waitForScreen((screen) => !screen.includes('tally'));
    expect(tui.host.failures()).toEqual([]);
  });

  it('tells the session which components it renders, again when a facet adds one', async () => {
    const session = await viewsSession(transport);
    const tui = await startTestTuiHost({ facets: {}, client: await session.connect() });
    cleanups.push(() => tui.stop());
    await eventually(() => session.shown.length > 0);
    expect(session.shown.at(-1)).toEqual([]);
    const { component } = tallyComponent('editor.above');
    const tally = await startTestTuiHost({
      facets: { '@t/tally': (context) => void context.views.add(component) },
      client: await session.connect(),
    });
    cleanups.push(() => tally.stop());
    await eventually(() => session.shown.some((components) => components.includes('test.tally')));
  });

  it('shows a placeholder line for a view whose component no facet contributed', async () => {
    const session = await viewsSession(transport);
    const tui = await startTestTuiHost({ facets: {}, client: await session.connect() });
    cleanups.push(() => tui.stop());
    session.openView('p:2', 'nobody.knows', { anything: true });
    await tui.waitForScreen((screen) =>
      screen.includes('[view nobody.knows: this terminal has no component to show it]'),
    );
    expect(tui.host.failures()).toEqual([]);
  });

  it('paints an overlay view over the transcript; it takes the keys until Esc dismisses it', async () => {
    const session = await viewsSession(transport);
    const { component, failures } = tallyComponent('overlay');
    const tui = await startTestTuiHost({
      facets: { '@t/tally': (context) => void context.views.add(component) },
      client: await session.connect(),
    });
    cleanups.push(() => tui.stop());
    session.openView('p:3', 'test.tally', { count: 5 });
    await tui.waitForScreen((screen) => screen.includes('tally 5'));

    await tui.type('x');
    await eventually(() => session.received.length === 1);
    expect(session.received).toEqual([{ viewId: 'p:3', message: { key: 'x' } }]);
    expect(tui.host.draft()).toBe('');

    await tui.type('!');
    await eventually(() => failures.length === 1);
    expect(failures[0]).toMatch(/does not fit view "test.tally"/);

    await tui.type('\x1b');
    await tui.waitForScreen((screen) => !screen.includes('tally 5'));
    await tui.type('y');
    expect(tui.host.draft()).toBe('y');
    expect(session.received).toHaveLength(1);
  });

  it('paints the overlay slot’s widgets over the transcript', async () => {
    const session = await viewsSession(transport);
    const tui = await startTestTuiHost({
      facets: { '@t/banner': (context) => void context.slots.add('overlay', { render: () => ['an overlay banner'] }) },
      client: await session.connect(),
    });
    cleanups.push(() => tui.stop());
    await tui.waitForScreen((screen) => screen.includes('an overlay banner'));
  });
});
