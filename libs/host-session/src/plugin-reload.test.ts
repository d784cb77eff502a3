import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BACKGROUND_CONTEXT } from '@pi/context';
import {
  Diagnostics,
  SessionPlugins,
  Views,
  defineView,
  type CodingAgentSessionPluginContext,
  type PluginSetState,
  type SessionFacet,
} from '@pi/plugin-api';
import { createRemoteState, defineRemoteService, type RemoteState } from '@pi/remote';
import type { RpcClient } from '@pi/transport-trpc';
import { createScriptedProvider } from '@pi/agent/testing';
import { modelProviderFacet, startTestSessionHost, type TestFacet } from './testing';

interface Greeter {
  readonly state: RemoteState<{ version: string }>;
  greet(context: unknown): Promise<string>;
  /** Resolves once the test releases it, with the version that took the call. */
  slow(context: unknown): Promise<string>;
}

const Greeter = defineRemoteService<Greeter>('test-greeter', {
  methods: { greet: { args: [], result: z.string() }, slow: { args: [], result: z.string() } },
  state: { state: z.object({ version: z.string() }) },
  events: {},
});

/** What the tests see of each version of the greeter plugin: its contexts, disposals and held slow calls. */
interface Probe {
  readonly contexts: CodingAgentSessionPluginContext[];
  readonly disposed: string[];
  release: () => void;
}

function greeterFacet(version: string, probe: Probe, options: { throwInSetup?: boolean } = {}): TestFacet {
  const facet: SessionFacet = (context) => {
    probe.contexts.push(context);
    if (options.throwInSetup === true) throw new Error(`greeter ${version} is broken`);
    let held: Promise<void> = new Promise((resolve) => (probe.release = resolve));
    context.provide(Greeter, {
      state: createRemoteState({ version }),
      greet: async () => `hello from ${version}`,
      slow: async () => {
        await held;
        held = Promise.resolve();
        return `slow ${version}`;
      },
    });
    context.onDispose(() => void probe.disposed.push(version));
  };
  return { id: 'greeter', facet };
}

function newProbe(): Probe {
  return { contexts: [], disposed: [], release: () => undefined };
}

/** Resolves with the first state of the `plugins` service that `accept` takes, as the client's replica sees it. */
async function pluginsState(client: RpcClient, accept: (state: PluginSetState) => boolean): Promise<PluginSetState> {
  const plugins = (await client.acquire(SessionPlugins)).service;
  return new Promise((resolve) => {
    const stop = plugins.state.subscribe((state) => {
      if (!accept(state)) return;
      queueMicrotask(() => stop());
      resolve(state);
    });
  });
}

/** Every connection state the client passes through from now on. */
function connectionStates(client: RpcClient): string[] {
  const seen: string[] = [];
  client.connection.subscribe((state) => seen.push(state.status));
  return seen;
}

describe.each(['loopback', 'websocket'] as const)('reloading the plugin set over %s', (transport) => {
  it('swaps in the edited plugin while the client stays connected on the same proxies', async () => {
    const [v1, v2] = [newProbe(), newProbe()];
    await using session = await startTestSessionHost({
      transport,
      facets: [greeterFacet('v1', v1)],
      reloadFacets: () => [greeterFacet('v2', v2)],
    });
    const client = await session.connect();
    const states = connectionStates(client);
    const greeter = (await client.acquire(Greeter)).service;
    expect(await greeter.greet(BACKGROUND_CONTEXT)).toBe('hello from v1');
    const versions: string[] = [];
    greeter.state.subscribe((state) => versions.push(state.version));

    const plugins = (await client.acquire(SessionPlugins)).service;
    const outcome = await plugins.reload(BACKGROUND_CONTEXT);

    expect(outcome).toEqual({ ok: true, generation: 2, message: 'reloaded: plugin set 2 is live' });
    expect(await greeter.greet(BACKGROUND_CONTEXT)).toBe('hello from v2');
    await pluginsState(client, (state) => state.generation === 2 && !state.reloading);
    expect(versions).toEqual(['v1', 'v2']);
    expect(v1.disposed).toEqual(['v1']);
    expect(states.every((status) => status === 'connected')).toBe(true);
    expect(session.host.rpc.stats()).toHaveLength(1);
  });

  it('leaves the running set untouched when the new one throws in setup, and says why', async () => {
    const [v1, v2] = [newProbe(), newProbe()];
    await using session = await startTestSessionHost({
      transport,
      facets: [greeterFacet('v1', v1)],
      reloadFacets: () => [greeterFacet('v2', v2, { throwInSetup: true })],
    });
    const client = await session.connect();
    const greeter = (await client.acquire(Greeter)).service;
    const outcome = await (await client.acquire(SessionPlugins)).service.reload(BACKGROUND_CONTEXT);

    expect(outcome.ok).toBe(false);
    expect(outcome.generation).toBe(1);
    expect(outcome.message).toMatch(
      /plugin "greeter" failed during setup: greeter v2 is broken; plugin set 1 stays live/,
    );
    expect(await greeter.greet(BACKGROUND_CONTEXT)).toBe('hello from v1');
    expect(v1.disposed).toEqual([]);
    expect(() => v2.contexts[0]?.agent.main.running).toThrow(
      /this context belongs to plugin set 2, which \/reload refused \(set 1 is live\)/,
    );
    const state = await pluginsState(client, (current) => current.lastReload !== null);
    expect(state).toMatchObject({ generation: 1, reloading: false, lastReload: { ok: false } });
    const diagnostics = (await client.acquire(Diagnostics)).service;
    expect(diagnostics.state.value.entries.map((entry) => entry.message)).toContainEqual(
      expect.stringMatching(/^reload refused: .*greeter v2 is broken/),
    );
  });

  it('leaves the running set untouched when the new set cannot be read (a syntax error in a plugin)', async () => {
    const v1 = newProbe();
    await using session = await startTestSessionHost({
      transport,
      facets: [greeterFacet('v1', v1)],
      reloadFacets: (generation) => `greeter.mjs:3 SyntaxError: Unexpected token (generation ${generation})`,
    });
    const client = await session.connect();
    const outcome = await (await client.acquire(SessionPlugins)).service.reload(BACKGROUND_CONTEXT);

    expect(outcome).toMatchObject({ ok: false, generation: 1 });
    expect(outcome.message).toMatch(/could not be read: greeter.mjs:3 SyntaxError.*plugin set 1 stays live/);
    expect(await (await client.acquire(Greeter)).service.greet(BACKGROUND_CONTEXT)).toBe('hello from v1');
  });

  it('refuses a reload once the session is stopping', async () => {
    const session = await startTestSessionHost({ transport, facets: [greeterFacet('v1', newProbe())] });
    await session.host.stop();
    expect(await session.host.reload()).toMatchObject({ ok: false, message: /the session is stopping/ });
    await session.close();
  });

  it('makes every context of the replaced set throw a clear error when it is used', async () => {
    const [v1, v2] = [newProbe(), newProbe()];
    await using session = await startTestSessionHost({
      transport,
      facets: [greeterFacet('v1', v1)],
      reloadFacets: () => [greeterFacet('v2', v2)],
    });
    const stale = v1.contexts[0] as CodingAgentSessionPluginContext;
    expect(stale.agent.main.running).toBeNull();
    expect((await session.host.reload()).ok).toBe(true);

    const replaced = /Plugin "greeter": this context belongs to plugin set 1, replaced by \/reload \(set 2 is live\)/;
    expect(() => stale.agent.main.running).toThrow(replaced);
    expect(() => stale.tools.add(() => undefined)).toThrow(replaced);
    expect(() => stale.use(Greeter)).toThrow(replaced);
    expect(() => stale.diagnostics.report('info', 'late')).toThrow(replaced);
    expect((v2.contexts[0] as CodingAgentSessionPluginContext).agent.main.running).toBeNull();
  });

  it('keeps a view open that the new set opened again under its id, and closes one it did not', async () => {
    const Panel = defineView('test.panel', { state: z.object({ version: z.string() }), message: z.never() });
    const opening = (version: string, ids: string[]): TestFacet => ({
      id: 'greeter',
      facet: (context) => {
        for (const id of ids) context.view(Panel, { version }, { id });
      },
    });
    await using session = await startTestSessionHost({
      transport,
      facets: [opening('v1', ['kept', 'dropped'])],
      reloadFacets: () => [opening('v2', ['kept'])],
    });
    const client = await session.connect();
    expect((await session.host.reload()).ok).toBe(true);
    const views = (await client.acquire(Views)).service;
    const open = await new Promise<unknown>((resolve) => views.open.subscribe((value) => resolve(value)));
    expect(JSON.stringify(open)).toContain('greeter:kept');
    expect(JSON.stringify(open)).not.toContain('greeter:dropped');
  });

  it('intercepts model requests with the new set only from the swap on, while the old set still drains', async () => {
    const [v1, v2] = [newProbe(), newProbe()];
    const hooked: string[] = [];
    const provider = createScriptedProvider({ turns: [[{ type: 'done', stopReason: 'stop' }]] });
    const withHook = (version: string, probe: Probe): TestFacet => ({
      id: 'greeter',
      facet: async (context) => {
        await greeterFacet(version, probe).facet(context);
        context.hook('beforeModelRequest', () => void hooked.push(version));
      },
    });
    const model: TestFacet = { id: '@t/model', facet: modelProviderFacet(provider) };
    await using session = await startTestSessionHost({
      transport,
      facets: [model, withHook('v1', v1)],
      reloadFacets: () => [model, withHook('v2', v2)],
      reloadDrainMs: 60_000,
    });
    const client = await session.connect();
    const running = (await client.acquire(Greeter)).service.slow(BACKGROUND_CONTEXT);
    await pluginsState(client, (state) => state.generation === 1);
    const reloaded = session.host.reload();
    await pluginsState(client, (state) => state.generation === 2);

    const agent = (v2.contexts[0] as CodingAgentSessionPluginContext).agent;
    const accepted = await agent.main.prompt(
      [{ role: 'user', content: [{ type: 'text', text: 'go' }] }],
      BACKGROUND_CONTEXT,
    );
    expect((await agent.main.settled(accepted._unsafeUnwrap().operationId)).outcome).toBe('completed');
    expect(hooked).toEqual(['v2']);
    expect(v1.disposed).toEqual([]);
    v1.release();
    await running;
    await reloaded;
  });

  it('lets a call running in the replaced set finish before the set is disposed, while new calls reach the new set', async () => {
    const [v1, v2] = [newProbe(), newProbe()];
    await using session = await startTestSessionHost({
      transport,
      facets: [greeterFacet('v1', v1)],
      reloadFacets: () => [greeterFacet('v2', v2)],
      reloadDrainMs: 60_000,
    });
    const client = await session.connect();
    const greeter = (await client.acquire(Greeter)).service;
    const running = greeter.slow(BACKGROUND_CONTEXT);
    await pluginsState(client, (state) => state.generation === 1);
    const reloaded = session.host.reload();

    await pluginsState(client, (state) => state.generation === 2);
    expect(await greeter.greet(BACKGROUND_CONTEXT)).toBe('hello from v2');
    expect(v1.disposed).toEqual([]);
    v1.release();
    expect(await running).toBe('slow v1');
    expect((await reloaded).ok).toBe(true);
    expect(v1.disposed).toEqual(['v1']);
  });
});
