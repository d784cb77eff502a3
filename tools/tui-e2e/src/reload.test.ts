import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startTestSessionHost, type TestSessionHost } from '@pi/host-session/testing';
import { startTestTuiHost, type TestTuiHost } from '@pi/host-tui/testing';
import {
  defineRemoteService,
  type CodingAgentTuiPluginContext,
  type RemoteState,
  type SessionFacet,
} from '@pi/plugin-api';
import { TRANSPORTS } from '@pi/test-support';

const running: Array<TestSessionHost | TestTuiHost> = [];
afterEach(async () => {
  for (const host of running.splice(0).reverse()) await ('close' in host ? host.close() : host.stop());
});

interface Greeter {
  readonly state: RemoteState<{ version: string }>;
}

const Greeter = defineRemoteService<Greeter>('test-greeter', {
  methods: {},
  state: { state: z.object({ version: z.string() }) },
  events: {},
});

/** The session half of a plugin as it is on disk at one moment. */
function greeterSession(version: string, broken = false): SessionFacet {
  return (context) => {
    if (broken) throw new Error(`greeter ${version} does not start`);
    context.provide(Greeter, { state: context.remoteState({ version }) });
  };
}

/** Its TUI half: a header line with its own version and the session half's, read from the replicated state. */
function greeterTui(version: string): (context: CodingAgentTuiPluginContext) => Promise<void> {
  return async (context) => {
    const greeter = await context.use(Greeter);
    context.slots.add('header', { render: () => [`greeter tui ${version} · session ${greeter.state.value.version}`] });
    context.own(greeter.state.subscribe(() => context.ui.requestRender()));
  };
}

describe.each(TRANSPORTS)('/reload in the TUI over %s', (transport) => {
  it('picks up the edited plugin in the session and in the TUI while the TUI stays connected', async () => {
    const session = await startTestSessionHost({
      transport,
      facets: [{ id: '@t/greeter', facet: greeterSession('v1') }],
      reloadFacets: () => [{ id: '@t/greeter', facet: greeterSession('v2') }],
    });
    running.push(session);
    const client = await session.connect();
    const statuses: string[] = [];
    client.connection.subscribe((state) => statuses.push(state.status));
    const edited = greeterTui('v2');
    const tui = await startTestTuiHost({
      facets: { '@t/greeter': greeterTui('v1') },
      reloadFacets: () => ({ '@t/greeter': edited }),
      client,
    });
    running.push(tui);
    await tui.waitForScreen((screen) => screen.includes('greeter tui v1 · session v1'));

    await tui.type('/reload\r');

    await tui.waitForScreen((screen) => screen.includes('greeter tui v2 · session v2'));
    await tui.waitForScreen((screen) => screen.includes('Reloaded: plugin set 2 is live'));
    expect(tui.screen()).not.toContain('greeter tui v1');
    // What a session switch starts the next host with.
    expect(tui.host.facets().map(({ facet }) => facet)).toEqual([edited]);
    expect(statuses.every((status) => status === 'connected')).toBe(true);
    expect(session.host.rpc.stats()).toHaveLength(1);
  });

  it('keeps the running plugins when the edited session plugin throws in setup, and says why', async () => {
    const session = await startTestSessionHost({
      transport,
      facets: [{ id: '@t/greeter', facet: greeterSession('v1') }],
      reloadFacets: () => [{ id: '@t/greeter', facet: greeterSession('v2', true) }],
    });
    running.push(session);
    const tui = await startTestTuiHost({
      facets: { '@t/greeter': greeterTui('v1') },
      reloadFacets: () => ({ '@t/greeter': greeterTui('v2') }),
      client: await session.connect(),
    });
    running.push(tui);
    await tui.waitForScreen((screen) => screen.includes('greeter tui v1 · session v1'));

    await tui.type('/reload\r');

    await tui.waitForScreen((screen) => screen.includes('Reload refused'));
    expect(tui.screen()).toContain('greeter tui v1 · session v1');
    await tui.type('/diagnostics\r');
    await tui.waitForScreen((screen) => screen.includes('greeter v2 does not start'));
  });

  it("restores the TUI's own plugins when their new version fails, after the session reloaded", async () => {
    const session = await startTestSessionHost({
      transport,
      facets: [{ id: '@t/greeter', facet: greeterSession('v1') }],
      reloadFacets: () => [{ id: '@t/greeter', facet: greeterSession('v2') }],
    });
    running.push(session);
    const original = greeterTui('v1');
    const tui = await startTestTuiHost({
      facets: { '@t/greeter': original },
      reloadFacets: () => ({
        '@t/greeter': () => {
          throw new Error('tui half broke');
        },
      }),
      client: await session.connect(),
    });
    running.push(tui);
    await tui.waitForScreen((screen) => screen.includes('greeter tui v1 · session v1'));

    await tui.type('/reload\r');

    await tui.waitForScreen((screen) => screen.includes('greeter tui v1 · session v2'));
    await tui.waitForScreen((screen) => screen.includes('Session reloaded; TUI plugins kept'));
    expect(tui.host.facets().map(({ facet }) => facet)).toEqual([original]);
    await tui.type('/diagnostics\r');
    await tui.waitForScreen((screen) => screen.includes('tui half broke'));
  });
});
